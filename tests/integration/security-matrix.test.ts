import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLL_MS, type ClientToServerEvents, type ServerToClientEvents, type SubscribeAck, type Subscription } from '@fleet/shared';
import { authTokens, users } from '../../server/src/db/schema.ts';
import { keyHash, randomKey } from '../../server/src/lib/crypto.ts';
import { startRealtime } from '../../server/src/realtime/realtime.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { ROUTE_ROWS, TOPIC_ROWS, type Role, type Row } from './security-matrix.rows.ts';

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
  const serials = async (who: Caller) => new Set(((await request(h.app).get('/api/v1/device').set('Authorization', auth[who]!)).body as { serial: string }[]).map((d) => d.serial));
  const [mine, theirs] = [await serials('C'), await serials('C2')];
  clientSerial = [...mine].find((s) => !theirs.has(s))!;
  expect(clientSerial).toBeTruthy();
  const secret = (await request(h.app).post(`/api/v1/deviceSecret/${clientSerial}`).set('Authorization', auth.D!)).body.secret;
  auth.device = `Basic ${Buffer.from(`${clientSerial}:${secret}`).toString('base64')}`;
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const operations = () => Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((method) => ({ method, path, key: `${method} ${path}` })));

/** Path parameters: real ones (a refusal must not hide behind a 404), or ones that exist nowhere (an allowed call changes nothing). */
function fill(path: string, real: boolean) {
  const values: Record<string, string> = real
    ? { serial: clientSerial, id: '1', email: 'partner2@demo.test', pumpTypeCode: '1', date: '2026-03-01' }
    : { serial: 'SP999999', id: '999999', email: 'nobody@nowhere.test', pumpTypeCode: '1', date: '2026-03-01' };
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? 'x');
}

async function call(method: string, path: string, caller: Caller) {
  const r = (request(h.app) as unknown as Record<string, (p: string) => request.Test>)[method]!(path);
  if (auth[caller]) r.set('Authorization', auth[caller]!);
  return method === 'get' ? r : r.send({});
}

describe('authorisation matrix (REST)', () => {
  it('every route of the OpenAPI document has a row, and every row a route', () => {
    const keys = operations().map((o) => o.key);
    const missing = keys.filter((k) => !ROUTE_ROWS[k]);
    expect(missing.map((k) => `No authorisation row for '${k}': add  '${k}': { allow: [...] },  to tests/integration/security-matrix.rows.ts`)).toEqual([]);
    const stale = Object.keys(ROUTE_ROWS).filter((k) => !keys.includes(k));
    expect(stale.map((k) => `Row for a route that no longer exists: '${k}'`)).toEqual([]);
  });

  it('refuses every caller the row does not allow, before validation, and lets the allowed ones through', async () => {
    const wrong: string[] = [];
    for (const { method, path, key } of operations()) {
      const row: Row | undefined = ROUTE_ROWS[key];
      if (!row) continue;
      for (const caller of CALLERS) {
        const role = roleOf(caller);
        const allowed = row.allow === 'public' || (row.allow === 'device' ? caller === 'device' : !!role && row.allow.includes(role));
        // Allowed callers get a harmless call (nothing by those ids); refused ones the real ids.
        if (key === 'post /auth/token/logout/' && allowed) continue; // would end the session the matrix uses
        const res = await call(method, fill(path, !allowed), caller);
        const s = res.status;
        const expected = allowed ? null : row.allow === 'device' || ['none', 'bad', 'device'].includes(caller) ? [401] : caller === 'deactivated' ? [403] : [403, 404];
        if (s >= 500) wrong.push(`${key} as ${caller}: ${s} ${JSON.stringify(res.body)}`);
        else if (expected && !expected.includes(s)) wrong.push(`${key} as ${caller}: ${s}, expected ${expected.join('/')} ${JSON.stringify(res.body).slice(0, 120)}`);
        else if (!expected && row.allow !== 'public' && (s === 401 || s === 403)) wrong.push(`${key} as ${caller} (allowed): ${s} ${JSON.stringify(res.body).slice(0, 120)}`);
      }
      // Another client on the first client's device: outside its scope.
      if (row.scoped && Array.isArray(row.allow) && row.allow.includes('C')) {
        const res = await call(method, fill(path, true), 'C2');
        if (![403, 404].includes(res.status)) wrong.push(`${key} as another client on ${clientSerial}: ${res.status}, expected 404/403`);
        const own = await call(method, fill(path, true), 'C');
        if (own.status === 403 || own.status === 404 || own.status >= 500) wrong.push(`${key} as the client on its own ${clientSerial}: ${own.status}`);
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
    rt = await startRealtime(server, { db: h.database.db, auth: (h.app as unknown as { auth: never }).auth, serviceToken: h.config.serviceToken, deviceApiUrl: base });
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
      const c: Client = connect(base, { path: '/socket.io', auth: token ? { token } : {}, transports: ['websocket'], reconnection: false, forceNew: true });
      c.on('connect', () => resolve(c));
      c.on('connect_error', (e) => resolve(e));
    });
  const subscribe = (c: Client, sub: Subscription) => new Promise<SubscribeAck>((resolve) => c.emit('subscribe', sub, resolve));
  const subscription = (topic: string, serial: string): Subscription =>
    topic === 'overview' ? { topic: 'overview' } : topic === 'deviceCards' ? { topic: 'deviceCards', serials: [serial] } : ({ topic, serial } as Subscription);

  it('every topic has a row', () => {
    expect(Object.keys(POLL_MS).filter((t) => !TOPIC_ROWS[t]).map((t) => `No authorisation row for socket topic '${t}' in security-matrix.rows.ts`)).toEqual([]);
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
          // The partner sees only its exclusive devices: a device outside them is refused.
          const outside = await subscribe(c, subscription(topic, 'SP999999'));
          if (outside.ok) wrong.push(`${topic} as partner on an unknown device: ${JSON.stringify(outside)}`);
        }
        c.close();
      }
    }
    expect(wrong).toEqual([]);
  }, 60_000);
});
