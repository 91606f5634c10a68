import express from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  alertsApi,
  authApi,
  batchesApi,
  billingApi,
  brandsApi,
  devicesApi,
  endpoint,
  gatewayApi,
  maintenanceApi,
  partnersApi,
  pathOf,
  placesApi,
  reportsApi,
  sitesApi,
  telemetryApi,
  usersApi,
  type Endpoint,
} from '@fleet/shared';
import { recordAnswerMismatches, type AnswerMismatch } from '../../server/src/openapi/answer-check.ts';
import { endpointRoutes } from '../../server/src/openapi/endpoint-routes.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

/**
 * The endpoint contract (issue 45, shared/src/api/): every declared call is registered, documented, and
 * answers what its declaration says. tests/helpers/answer-check.setup.ts checks every answer of every
 * test against its declaration; this file shows that check fails on a wrong answer, and calls every
 * declared read on the seeded demo.
 */
const DECLARED: Endpoint[] = [
  alertsApi,
  authApi,
  batchesApi,
  billingApi,
  brandsApi,
  devicesApi,
  gatewayApi,
  maintenanceApi,
  partnersApi,
  placesApi,
  reportsApi,
  sitesApi,
  telemetryApi,
  usersApi,
].flatMap((api) => Object.values(api) as Endpoint[]);

describe('the answer check', () => {
  it('records an answer that does not match its declared schema, and lets a matching one through', async () => {
    const declaration = endpoint({
      method: 'get',
      path: '/api/v1/probe/:n',
      tag: 'Test',
      summary: 'probe',
      responses: { 200: { description: 'a number', schema: z.object({ n: z.number() }) } },
    });
    const { router, on } = endpointRoutes();
    on(declaration, (req, res) => void res.json({ n: req.params.n === 'good' ? 1 : 'one' }));
    const app = express().use('/api/v1', router);
    const seen: AnswerMismatch[] = [];
    const previous = recordAnswerMismatches((m) => seen.push(m));
    try {
      await request(app).get('/api/v1/probe/good').expect(200);
      expect(seen).toEqual([]);
      await request(app).get('/api/v1/probe/bad').expect(200);
      expect(seen).toEqual([
        { method: 'GET', path: '/api/v1/probe/:n', status: 200, issues: ['n: Invalid input: expected number, received string'] },
      ]);
    } finally {
      recordAnswerMismatches(previous);
    }
  });

  it('checks a compressed cached answer too (the device list is sent as brotli or gzip bytes)', async () => {
    const declaration = endpoint({
      method: 'get',
      path: '/api/v1/probeList',
      tag: 'Test',
      summary: 'probe',
      responses: { 200: { description: 'numbers', schema: z.array(z.number()) } },
    });
    const { router, on } = endpointRoutes();
    const { gzipSync } = await import('node:zlib');
    on(declaration, (_req, res) => void res.set('Content-Encoding', 'gzip').type('json').send(gzipSync('[1,"2"]')));
    const seen: AnswerMismatch[] = [];
    const previous = recordAnswerMismatches((m) => seen.push(m));
    try {
      await request(express().use('/api/v1', router)).get('/api/v1/probeList');
      expect(seen.map((m) => m.issues)).toEqual([['1: Invalid input: expected number, received string']]);
    } finally {
      recordAnswerMismatches(previous);
    }
  });
});

describe('every declared call on the seeded demo', () => {
  let h: Harness;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    h = await startHarness('pglite');
    for (const email of ['distributor@demo.test', 'client@demo.test', 'partner@demo.test']) {
      keys[email] = (await request(h.app).post('/auth/token/login/').send({ email, password: 'Demo1234' })).body.auth_token;
    }
  });
  afterAll(async () => {
    await h?.close();
  });

  it('documents every declared call in the OpenAPI document, with its roles', async () => {
    const doc = (await request(h.app).get('/api/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { 'x-roles'?: string[] }>>;
    };
    for (const d of DECLARED) {
      const op = doc.paths[d.path.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[d.method];
      expect(op, `${d.method} ${d.path}`).toBeDefined();
      expect(op?.['x-roles'], `${d.method} ${d.path}`).toEqual(d.roles ? [...d.roles] : undefined);
    }
  });

  it('answers every declared read, as each role, with what its declaration says', async () => {
    const devices = (await request(h.app).get('/api/v1/device').set('Authorization', `Token ${keys['distributor@demo.test']}`))
      .body as { serial: string }[];
    const brands = (await request(h.app).get('/api/v1/brand').set('Authorization', `Token ${keys['distributor@demo.test']}`))
      .body as { id: number }[];
    const params: Record<string, string | number> = {
      serial: devices[0]!.serial,
      id: brands[0]!.id,
      pumpTypeCode: 1,
      date: '2026-11-01',
      email: 'client@demo.test',
    };
    const queries: Record<string, Record<string, string>> = {
      [placesApi.nearestPlace.path]: { lat: '29.95', lng: '-90.07' },
      [placesApi.placeSuggestions.path]: { input: 'Metairie' },
      [placesApi.placeNames.path]: { west: '-91', south: '29', east: '-89', north: '31' },
      [sitesApi.siteNames.path]: { bbox: '29,-91,31,-89' },
      [telemetryApi.monthDataUsage.path]: {},
    };
    const reads = DECLARED.filter((d) => d.method === 'get' && (d.auth ?? 'token') === 'token');
    expect(reads.length).toBeGreaterThan(20);
    let parsed = 0;
    for (const email of Object.keys(keys)) {
      for (const d of reads) {
        // The labels answer a PDF for a selection the caller must name; tests/integration/device-labels.test.ts reads it.
        if (d.path === devicesApi.labels.path) continue;
        const answer = await request(h.app)
          .get(pathOf(d, params as never))
          .query(queries[d.path] ?? {})
          .set('Authorization', `Token ${keys[email]}`);
        const allowed = !d.roles || (email.startsWith('distributor') ? d.roles.includes('distributor') : false);
        if (d.roles && !allowed) continue;
        expect([200, 403, 404], `${email} GET ${d.path}: ${answer.status} ${answer.text.slice(0, 200)}`).toContain(answer.status);
        const schema = d.responses?.[answer.status]?.schema;
        if (answer.status === 200 && schema) {
          expect(schema.safeParse(answer.body).error?.issues ?? [], `${email} GET ${d.path}`).toEqual([]);
          parsed += 1;
        }
      }
    }
    // Most reads declare their answer: the lists of devices, batches, brands, users, reports, bills, places.
    expect(parsed).toBeGreaterThan(25);
  });

  it("answers the field app's reads on the maintenance credential, and refuses it the credential's management", async () => {
    const token = `Token ${h.config.maintenanceToken}`;
    const list = await request(h.app).get(maintenanceApi.devices.path).set('Authorization', token).expect(200);
    const serials = (list.body as { serial: string }[]).slice(0, 2).map((d) => d.serial);
    expect(serials.length).toBe(2);
    const some = await request(h.app)
      .get(maintenanceApi.devices.path)
      .query({ serials: serials.join(',') })
      .set('Authorization', token)
      .expect(200);
    expect(
      maintenanceApi.devices.responses[200].schema
        .parse(some.body)
        .map((d) => d.serial)
        .sort(),
    ).toEqual([...serials].sort());
    const records = await request(h.app).get(maintenanceApi.records.path).set('Authorization', token).expect(200);
    expect(maintenanceApi.records.responses[200].schema.safeParse(records.body).success).toBe(true);
    await request(h.app).get(maintenanceApi.credential.path).set('Authorization', token).expect(403);
  });
});
