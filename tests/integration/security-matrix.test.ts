import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  POLL_MS,
  type ClientToServerEvents,
  type ServerToClientEvents,
  type SubscribeAck,
  type Subscription,
} from '@fleet/shared';
import { authTokens, reportEmails, users } from '../../server/src/db/schema.ts';
import { keyHash, randomKey } from '../../server/src/lib/crypto.ts';
import { startRealtime } from '../../server/src/realtime/realtime.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { pdfText, pdfTextChecks } from '../helpers/pdf-text.ts';
import { MATRIX_EMAIL, ROUTE_ROWS, TOPIC_ROWS, type Role, type Row } from './security-matrix.rows.ts';

/**
 * Promise: every route and socket topic refuses whoever may not call it. Generated from the OpenAPI
 * document (the route table every route declares itself in) x callers: no token, a bad token, a
 * deactivated account, a device credential, a distributor, a client, another client, a market partner.
 * A route without a row in security-matrix.rows.ts fails, with the line to add.
 */
type Caller = 'none' | 'bad' | 'deactivated' | 'device' | 'D' | 'C' | 'C2' | 'P';
const CALLERS: Caller[] = ['none', 'bad', 'deactivated', 'device', 'D', 'C', 'C2', 'P'];
const roleOf = (c: Caller): Role | undefined => (c === 'C2' ? 'C' : c === 'D' || c === 'C' || c === 'P' ? c : undefined);

let h: Harness;
let doc: { paths: Record<string, Record<string, unknown>> };
const auth: Partial<Record<Caller, string>> = {};
/** A device the client sees and the other client does not; the device whose credential is the device caller. */
let clientSerial = '';
/** Real placed devices inside and outside the market partner's exclusive set. */
let partnerInside = '';
let partnerOutside = '';
/** A pending change of each of those devices (the {id} of cancelPendingChange), made by the distributor. */
const pendingChange: Record<string, number> = {};
/** A report email and a report tag of the first client's (the `own` rows' {id}). */
const owned: { email: number; tag: number } = { email: 0, tag: 0 };

async function login(email: string) {
  const res = await request(h.app).post('/auth/token/login/').send({ email, password: 'Demo1234' });
  expect(res.status, `login ${email}`).toBe(200);
  return `Token ${res.body.auth_token}`;
}

beforeAll(async () => {
  h = await startHarness('pglite');
  doc = (await request(h.app).get('/api/openapi.json')).body;
  auth.D = await login('distributor@demo.test');
  auth.C = await login('client@demo.test');
  auth.C2 = await login('client2@demo.test');
  auth.P = await login('partner@demo.test');
  auth.bad = `Token ${'f'.repeat(40)}`;
  // A token of the account deactivated for an overdue invoice (it can no longer sign in to get one).
  const key = randomKey();
  const [overdue] = await h.database.db.select({ id: users.id }).from(users).where(eq(users.email, 'overdue@demo.test'));
  await h.database.db.insert(authTokens).values({ userId: overdue!.id, keyHash: keyHash(h.config.secretKey, key) });
  auth.deactivated = `Token ${key}`;
  const serials = async (who: Caller) =>
    new Set(
      ((await request(h.app).get('/api/v1/device').set('Authorization', auth[who]!)).body as { serial: string }[]).map(
        (d) => d.serial,
      ),
    );
  const [mine, theirs] = [await serials('C'), await serials('C2')];
  clientSerial = [...mine].find((s) => !theirs.has(s))!;
  expect(clientSerial).toBeTruthy();
  const secret = (await request(h.app).post(`/api/v1/deviceSecret/${clientSerial}`).set('Authorization', auth.D!)).body.secret;
  auth.device = `Basic ${Buffer.from(`${clientSerial}:${secret}`).toString('base64')}`;
  const [everything, partners] = [await serials('D'), await serials('P')];
  partnerInside = [...partners][0]!;
  partnerOutside = [...everything].find((s) => !partners.has(s))!;
  expect(partnerInside && partnerOutside).toBeTruthy();
  for (const serial of [partnerInside, partnerOutside]) {
    expect(
      (
        await request(h.app)
          .post(`/api/v1/set_device_config/${serial}`)
          .set('Authorization', auth.D!)
          .send({ is_enabled_maintenance: true })
      ).status,
    ).toBe(200);
    const panel = (await request(h.app).get(`/api/v1/device/${serial}`).set('Authorization', auth.D!)).body as {
      pending_changes: { id: number; setting: string }[];
    };
    pendingChange[serial] = panel.pending_changes.find((p) => p.setting === 'is_enabled_maintenance')!.id;
  }
  // Every token caller has the same address on its Email List for Report (emailReport's body names it).
  for (const who of ['D', 'C', 'C2', 'P'] as Caller[]) {
    const added = await request(h.app)
      .post('/api/v1/addEmail')
      .set('Authorization', auth[who]!)
      .send({ email: MATRIX_EMAIL, name: 'Matrix' });
    expect(added.status, `addEmail as ${who}`).toBe(201);
  }
  // Confirmed as its recipient would (one confirmation mail a day reaches it, for the first list only).
  await h.database.db.update(reportEmails).set({ confirmedAt: new Date() }).where(eq(reportEmails.email, MATRIX_EMAIL));
  owned.email = (
    await request(h.app)
      .post('/api/v1/addEmail')
      .set('Authorization', auth.C!)
      .send({ email: 'matrix-own@mail.test', name: 'Own' })
  ).body.id;
  expect(owned.email).toBeGreaterThan(0);
  const tag = await request(h.app)
    .post('/api/v1/addReportTag')
    .set('Authorization', auth.C!)
    .send({ name: 'matrix own tag', deviceSerials: [clientSerial] });
  expect(tag.status).toBe(201);
  owned.tag = tag.body.id;
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => ({ method, path, key: `${method} ${path}` })),
  );

/** Path parameters: real ones (a refusal must not hide behind a 404), or ones that exist nowhere (an allowed call changes nothing). */
function fill(path: string, real: boolean) {
  const values: Record<string, string> = real
    ? { serial: clientSerial, id: '1', email: 'partner2@demo.test', pumpTypeCode: '1', date: '2026-03-01' }
    : { serial: 'SP999999', id: '999999', email: 'nobody@nowhere.test', pumpTypeCode: '1', date: '2026-03-01' };
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? 'x');
}

/** The path with a real device: its {serial}, and for {id} a pending change of it. */
const onDevice = (path: string, serial: string) =>
  path
    .replace('{serial}', serial)
    .replace('{id}', String(pendingChange[serial] ?? 999999))
    .replace('{date}', '2026-03-01');

async function call(method: string, path: string, caller: Caller, body: unknown = {}) {
  const r = (request(h.app) as unknown as Record<string, (p: string) => request.Test>)[method]!(path);
  if (auth[caller]) r.set('Authorization', auth[caller]!);
  return method === 'get' ? r : r.send(body as object);
}
let n = 0;

describe('authorisation matrix (REST)', () => {
  it('every route of the OpenAPI document has a row, and every row a route', () => {
    const keys = operations().map((o) => o.key);
    const missing = keys.filter((k) => !ROUTE_ROWS[k]);
    expect(
      missing.map(
        (k) => `No authorisation row for '${k}': add  '${k}': { allow: [...] },  to tests/integration/security-matrix.rows.ts`,
      ),
    ).toEqual([]);
    const stale = Object.keys(ROUTE_ROWS).filter((k) => !keys.includes(k));
    expect(stale.map((k) => `Row for a route that no longer exists: '${k}'`)).toEqual([]);
  });

  it('every route the Express app answers is in the OpenAPI document or in the short list of non-API routes', () => {
    // The matrix is generated from the OpenAPI document: a route added to a router without declaring it
    // there would escape it. This walks the app's real router stack (Express 5: app.router.stack, and the
    // stack of every mounted router) and names what is neither declared nor listed below.
    const NON_API = new Set([
      'get /metrics', // Prometheus text, no user data (SECURITY.md: who can reach it)
      'get /api/openapi.json', // this document
      'get /api/docs', // the page that renders it
    ]);
    /** Middleware at a path of its own that answers requests (not a router): each named and why. */
    const NON_API_MOUNTS = new Set([
      'use /uploads', // uploaded logos and avatars (static, their own CSP)
      'use /api,/auth,/device', // the JSON 404 of unknown API paths
    ]);
    type Layer = {
      rawPath?: unknown;
      route?: { path: unknown; methods: Record<string, boolean> };
      handle: { stack?: Layer[] };
      name: string;
    };
    const found: string[] = [];
    const join = (prefix: string, p: unknown) => (p === '/' || p === undefined ? prefix || '/' : `${prefix}${String(p)}`);
    const walk = (stack: Layer[], prefix: string) => {
      // A router's own middleware mounted beside it (`app.use('/api/pdf', requireAuth, router)`) belongs to it.
      const routers = new Set(stack.filter((l) => l.handle.stack).map((l) => JSON.stringify(l.rawPath)));
      for (const layer of stack) {
        if (!layer.route && !layer.handle.stack && routers.has(JSON.stringify(layer.rawPath))) continue;
        if (layer.route) {
          const path = join(prefix, layer.route.path).replace(/:(\w+)/g, '{$1}');
          for (const method of Object.keys(layer.route.methods)) found.push(`${method} ${path}`);
        } else if (layer.handle.stack) walk(layer.handle.stack, join(prefix, layer.rawPath).replace(/\/$/, ''));
        // Middleware on every path (helmet, body parsers, auth, the built client's static files) is no route.
        else if (layer.rawPath !== '/') found.push(`use ${[layer.rawPath].flat().join(',')}`);
      }
    };
    walk((h.app as unknown as { router: { stack: Layer[] } }).router.stack, '');
    const declared = new Set(operations().map((o) => o.key));
    expect(found.length).toBeGreaterThan(declared.size);
    // The walk sees the routers' own routes (a wrong walk would find nothing to compare).
    expect(found).toContain('post /api/v1/addBatch');
    expect(found).toContain('post /device/v1/checkin');
    expect(found).toContain('post /api/pdf');
    const undeclared = found.filter((k) => !declared.has(k) && !NON_API.has(k) && !NON_API_MOUNTS.has(k));
    expect(
      undeclared.map(
        (k) => `'${k}' answers but is not in the OpenAPI document: declare it in its feature's docs (and give it a row here)`,
      ),
    ).toEqual([]);
    const unserved = [...declared].filter((k) => !found.includes(k));
    expect(unserved.map((k) => `'${k}' is declared but no route answers it`)).toEqual([]);
  });

  it.skipIf(!pdfTextChecks)(
    'POST /api/pdf renders only what it is sent: a device outside the scope gets nothing stored added',
    async () => {
      const stored = (
        await request(h.app)
          .post('/api/v1/report')
          .set('Authorization', auth.C!)
          .send({ deviceSerials: [clientSerial], startDate: '2026-03-01', endDate: '2026-03-08' })
      ).body as { devices: { name: string }[] };
      const storedName = stored.devices[0]!.name;
      expect(storedName.length).toBeGreaterThan(3);
      const sent = {
        ...stored,
        devices: stored.devices.map((d) => ({ ...d, name: 'Sent by the caller', address: 'Nowhere 1' })),
      };
      const res = await request(h.app)
        .post('/api/pdf')
        .set('Authorization', auth.C2!)
        .send(sent)
        .buffer(true)
        .parse((r, cb) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => cb(null, Buffer.concat(chunks)));
        });
      expect(res.status).toBe(200);
      const text = pdfText(res.body as Buffer);
      expect(text).toContain('Sent by the caller');
      expect(text).not.toContain(storedName);
    },
  );

  it('refuses every caller the row does not allow, before validation, and lets the allowed ones through', async () => {
    const wrong: string[] = [];
    for (const { method, path, key } of operations()) {
      const row: Row | undefined = ROUTE_ROWS[key];
      if (!row) continue;
      for (const caller of CALLERS) {
        const role = roleOf(caller);
        const allowed =
          row.allow === 'public' || (row.allow === 'device' ? caller === 'device' : !!role && row.allow.includes(role));
        // Allowed callers get a harmless call (nothing by those ids); refused ones the real ids.
        if (key === 'post /auth/token/logout/' && allowed) continue; // would end the session the matrix uses
        const res = await call(method, fill(path, !allowed), caller);
        const s = res.status;
        const expected = allowed
          ? null
          : row.allow === 'device' || ['none', 'bad', 'device'].includes(caller)
            ? [401]
            : caller === 'deactivated'
              ? [403]
              : [403, 404];
        if (s >= 500) wrong.push(`${key} as ${caller}: ${s} ${JSON.stringify(res.body)}`);
        else if (expected && !expected.includes(s))
          wrong.push(`${key} as ${caller}: ${s}, expected ${expected.join('/')} ${JSON.stringify(res.body).slice(0, 120)}`);
        else if (!expected && row.allow !== 'public' && (s === 401 || s === 403))
          wrong.push(`${key} as ${caller} (allowed): ${s} ${JSON.stringify(res.body).slice(0, 120)}`);
      }
      if (!Array.isArray(row.allow)) continue;
      // Scope: each scoped role on a real device outside its scope (another client on the first client's
      // device, the partner on a device outside its exclusive set) is refused; inside its scope it passes.
      if (row.scoped) {
        const cases = [
          ...(row.allow.includes('C')
            ? [{ who: 'C2' as Caller, outside: clientSerial, insider: 'C' as Caller, inside: clientSerial }]
            : []),
          ...(row.allow.includes('P')
            ? [{ who: 'P' as Caller, outside: partnerOutside, insider: 'P' as Caller, inside: partnerInside }]
            : []),
        ];
        if (!row.body && !/\{(serial|id)\}/.test(path))
          wrong.push(`${key}: scoped, but names no device in its path and has no body`);
        for (const c of cases) {
          if (row.body) {
            // The device in the body: nothing about it is served (no 2xx); the same body on an own device is.
            const out = await call(method, path, c.who, row.body(c.outside, ++n));
            if (out.status < 300 || out.status >= 500)
              wrong.push(
                `${key} as ${c.who} with ${c.outside} (outside its scope) in the body: ${out.status} ${JSON.stringify(out.body).slice(0, 120)}`,
              );
            const own = await call(method, path, c.insider, row.body(c.inside, ++n));
            if (own.status >= 300)
              wrong.push(
                `${key} as ${c.insider} with its own ${c.inside} in the body: ${own.status} ${JSON.stringify(own.body).slice(0, 120)}`,
              );
          } else {
            const out = await call(method, onDevice(path, c.outside), c.who);
            if (![403, 404].includes(out.status))
              wrong.push(
                `${key} as ${c.who} on ${c.outside} (outside its scope): ${out.status}, expected 404/403 ${JSON.stringify(out.body).slice(0, 120)}`,
              );
            const own = await call(method, onDevice(path, c.inside), c.insider);
            if (own.status === 403 || own.status === 404 || own.status >= 500)
              wrong.push(
                `${key} as ${c.insider} on its own ${c.inside}: ${own.status} ${JSON.stringify(own.body).slice(0, 120)}`,
              );
          }
        }
      }
      // Own rows: another client with the first client's real id hears 404, whatever the body; the owner passes.
      if (row.own) {
        const id = String(owned[row.own]);
        const other = await call(method, path.replace('{id}', id), 'C2');
        if (other.status !== 404)
          wrong.push(`${key} as another client on the client's ${row.own} ${id}: ${other.status}, expected 404`);
        const own = await call(
          method,
          path.replace('{id}', id),
          'C',
          /delete|remove/i.test(path) ? {} : { name: 'matrix own renamed' },
        );
        if (own.status >= 300)
          wrong.push(`${key} as the client on its own ${row.own} ${id}: ${own.status} ${JSON.stringify(own.body).slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);
});

describe('authorisation matrix (socket topics)', () => {
  type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
  let server: http.Server;
  let rt: Awaited<ReturnType<typeof startRealtime>>;
  let base = '';
  beforeAll(async () => {
    server = http.createServer(h.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    rt = await startRealtime(server, {
      db: h.database.db,
      auth: (h.app as unknown as { auth: never }).auth,
      serviceToken: h.config.serviceToken,
      deviceApiUrl: base,
    });
  });
  afterAll(async () => {
    await rt?.close();
    server?.closeAllConnections();
    await new Promise((r) => server?.close(r));
  });

  const open = (caller: Caller) =>
    new Promise<Client | Error>((resolve) => {
      const header = auth[caller] ?? '';
      const token = header.startsWith('Token ') ? header.slice(6) : header;
      const c: Client = connect(base, {
        path: '/socket.io',
        auth: token ? { token } : {},
        transports: ['websocket'],
        reconnection: false,
        forceNew: true,
      });
      c.on('connect', () => resolve(c));
      c.on('connect_error', (e) => resolve(e));
    });
  const subscribe = (c: Client, sub: Subscription) => new Promise<SubscribeAck>((resolve) => c.emit('subscribe', sub, resolve));
  const subscription = (topic: string, serial: string): Subscription =>
    topic === 'overview'
      ? { topic: 'overview' }
      : topic === 'deviceCards'
        ? { topic: 'deviceCards', serials: [serial] }
        : ({ topic, serial } as Subscription);

  it('every topic has a row', () => {
    expect(
      Object.keys(POLL_MS)
        .filter((t) => !TOPIC_ROWS[t])
        .map((t) => `No authorisation row for socket topic '${t}' in security-matrix.rows.ts`),
    ).toEqual([]);
  });

  it('refuses the socket of no token, a bad token, a deactivated account and a device credential; scopes each topic', async () => {
    for (const caller of ['none', 'bad', 'deactivated', 'device'] as Caller[]) {
      const c = await open(caller);
      expect(c instanceof Error, `${caller} connected`).toBe(true);
    }
    const wrong: string[] = [];
    for (const [topic, row] of Object.entries(TOPIC_ROWS)) {
      for (const caller of ['D', 'C', 'C2', 'P'] as Caller[]) {
        const c = (await open(caller)) as Client;
        // The client's device: the distributor and the client see it; the other client does not.
        const ack = await subscribe(c, subscription(topic, clientSerial));
        const shouldSee = !row.scoped || caller === 'D' || caller === 'C';
        if (caller !== 'P' && ack.ok !== shouldSee) wrong.push(`${topic} as ${caller}: ${JSON.stringify(ack)}`);
        if (caller === 'P' && row.scoped) {
          // The partner sees only its exclusive devices: a real device outside them is refused, its own is not.
          const outside = await subscribe(c, subscription(topic, partnerOutside));
          if (outside.ok)
            wrong.push(`${topic} as partner on ${partnerOutside}, outside its exclusive set: ${JSON.stringify(outside)}`);
          const inside = await subscribe(c, subscription(topic, partnerInside));
          if (!inside.ok) wrong.push(`${topic} as partner on its own ${partnerInside}: ${JSON.stringify(inside)}`);
        }
        c.close();
      }
    }
    expect(wrong).toEqual([]);
  }, 60_000);
});
