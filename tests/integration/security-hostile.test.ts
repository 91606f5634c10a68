import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BRAND_IMAGE_MAX_BYTES } from '@fleet/shared';
import { users } from '../../server/src/db/schema.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Promise: no input makes the server fail. Every write route of the OpenAPI document (and the device
 * gateway) gets hostile bodies and hostile path parameters as a caller allowed to use it; every answer
 * is a 4xx or a success, never a 5xx. (What is stored from the accepted ones is checked by each feature's
 * own tests; here the promise is that nothing breaks.) The multipart writes (editUser, addBrand,
 * brand/{id}) also get hostile uploads: each is a 4xx, and nothing of it is saved, not even in part.
 */
const big = 'A'.repeat(200_000);
const deep = JSON.parse('{"a":'.repeat(2000) + '1' + '}'.repeat(2000));
const BODIES: [string, unknown, string?][] = [
  ['array instead of object', [1, 2, 3]],
  ['null', null],
  ['number', 42],
  [
    'strings everywhere',
    Object.fromEntries(
      [
        'email',
        'name',
        'serial',
        'serials',
        'deviceSerials',
        'isPause',
        'id',
        'password',
        'startDate',
        'endDate',
        'emails',
        'timezone_id',
        'pumpNumber',
        'token',
        'bill_uid',
      ].map((k) => [k, "' OR 1=1; --"]),
    ),
  ],
  [
    'NUL and control characters',
    {
      email: 'a\u0000@b.c',
      name: '\u0000\u0001\u0002',
      label: '\u0000',
      serialNumber: 'SP\u00002400',
      deviceSerials: ['\u0000'],
    },
  ],
  ['prototype pollution', JSON.parse('{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}')],
  [
    'huge numbers',
    { id: 1e308, pumpNumber: -1e308, powerOffTime: Number.MAX_SAFE_INTEGER * 10, price_usd: 1e300, lat: 1e9, lng: -1e9 },
  ],
  [
    'wrong types',
    { isPause: 'yes', deviceSerials: 'SP240001', emails: { a: 1 }, startDate: 20260301, serials: [[['x']]], is_enable: 'false' },
  ],
  ['deeply nested', deep],
  ['long strings', { email: `${big}@x.com`, name: big, label: big, deviceSerials: [big], serialNumber: big }],
  ['script and markup', { name: '<script>alert(1)</script>', label: '"><img src=x onerror=alert(1)>', email: 'x@y.z<script>' }],
  ['malformed JSON', '{"email": ', 'raw'],
];
const PARAMS = [
  'SP240001',
  "SP240001' OR '1'='1",
  '%00',
  '..%2F..%2Fetc%2Fpasswd',
  '-1',
  '99999999999999999999',
  'null',
  encodeURIComponent('<script>'),
];

describe('hostile input over every write route and the gateway', () => {
  let h: Harness;
  let token = '';
  let device = '';
  beforeAll(async () => {
    h = await startHarness('pglite');
    token = (await request(h.app).post('/auth/token/login/').send({ email: 'distributor@demo.test', password: 'Demo1234' })).body
      .auth_token;
    const secret = (await request(h.app).post('/api/v1/deviceSecret/SP240002').set('Authorization', `Token ${token}`)).body
      .secret;
    device = `Basic ${Buffer.from(`SP240002:${secret}`).toString('base64')}`;
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it('answers every hostile request with a 4xx or a success, never a 5xx', async () => {
    const doc = (await request(h.app).get('/api/openapi.json')).body as {
      paths: Record<string, Record<string, { security: Record<string, unknown>[] }>>;
    };
    const writes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([method]) => method !== 'get')
        // Sign-out would end the session the test uses; the sign-in and reset throttles are tested elsewhere.
        .filter(() => !/token\/logout/.test(path))
        .map(([method, op]) => ({
          method,
          path,
          kind: op.security.some((s) => 'deviceAuth' in s) ? 'device' : op.security.length ? 'token' : 'public',
        })),
    );
    expect(writes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    let count = 0;
    let refused = 0;
    for (const { method, path, kind } of writes) {
      const params = /\{\w+\}/.test(path) ? PARAMS : ['-'];
      for (const param of params) {
        const url = path.replace(/\{(\w+)\}/g, param);
        for (const [name, body, raw] of BODIES) {
          const r = (request(h.app) as unknown as Record<string, (p: string) => request.Test>)[method]!(url);
          if (kind === 'token') r.set('Authorization', `Token ${token}`);
          if (kind === 'device') r.set('Authorization', device);
          const res = await r.set('Content-Type', 'application/json').send(raw ? (body as string) : JSON.stringify(body));
          count += 1;
          if (kind === 'token' && (res.status === 401 || res.status === 403)) refused += 1;
          if (res.status >= 500)
            failures.push(`${method.toUpperCase()} ${url} (${name}): ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
        }
      }
    }
    expect(count).toBeGreaterThan(1000);
    // The distributor may call these: the hostile input reached the routes, not a locked door.
    expect(refused / count).toBeLessThan(0.05);
    expect(failures).toEqual([]);
  }, 600_000);

  it('a path parameter that cannot be percent-decoded answers 400 on every route that has one, with a token or without, before any other check', async () => {
    const doc = (await request(h.app).get('/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
      /\{\w+\}/.test(path) ? Object.keys(ops).map((method) => ({ method, path })) : [],
    );
    expect(routes.length).toBeGreaterThanOrEqual(34);
    const client = (await request(h.app).post('/auth/token/login/').send({ email: 'client@demo.test', password: 'Demo1234' }))
      .body.auth_token as string;
    // A lone 0xff byte, a UTF-8-encoded lone surrogate, a cut sequence, a stray '%'.
    const BAD = ['%ff', '%ED%A0%80', '%E2%82', 'SP24%'];
    const wrong: string[] = [];
    for (const { method, path } of routes) {
      for (const bad of BAD) {
        const url = path.replace(/\{(\w+)\}/g, bad);
        for (const caller of [null, token, client]) {
          const r = (request(h.app) as unknown as Record<string, (p: string) => request.Test>)[method]!(url);
          if (caller) r.set('Authorization', `Token ${caller}`);
          const res = await r;
          if (res.status !== 400 || !/percent-encoding/.test(res.body.detail))
            wrong.push(
              `${method.toUpperCase()} ${url} (${caller === null ? 'no token' : caller === token ? 'distributor' : 'client'}): ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`,
            );
        }
      }
    }
    expect(wrong).toEqual([]);
    // Control: a well-formed encoded parameter still reaches its route.
    // (Not a device: the first test may have deleted SP240001 with one of its hostile bodies.)
    expect((await request(h.app).get('/api/v1/checkUser/distributor%40demo%2Etest')).body).toMatchObject({
      role: expect.any(String),
    });
  });

  it('a JSON call refuses a body of another type (text, form, XML) with 415; multipart calls, body-less POSTs, the gateway and the signed webhook keep their own formats', async () => {
    type Op = { requestBody?: { content: Record<string, unknown> }; security: Record<string, unknown>[] };
    const doc = (await request(h.app).get('/api/openapi.json')).body as { paths: Record<string, Record<string, Op>> };
    const ops = Object.entries(doc.paths).flatMap(([path, byMethod]) =>
      Object.entries(byMethod)
        .filter(([m]) => m !== 'get')
        .map(([method, op]) => ({ method, path: path.replace(/\{(\w+)\}/g, 'SP240001'), op })),
    );
    const own = (path: string, op: Op) => op.security.some((s) => 'deviceAuth' in s) || path === '/api/billing/webhook';
    const json = ops.filter(({ path, op }) => op.requestBody && !own(path, op));
    expect(json.length).toBeGreaterThan(35);
    const OTHER: [string, string][] = [
      ['text/plain', '{"serialNumber":"SP249999"}'],
      ['application/x-www-form-urlencoded', 'serialNumber=SP249999&rightPumpType=x'],
      ['application/xml', '<device><serialNumber>SP249999</serialNumber></device>'],
    ];
    const wrong: string[] = [];
    const send = (method: string, path: string) =>
      (request(h.app) as unknown as Record<string, (p: string) => request.Test>)[method]!(path).set(
        'Authorization',
        `Token ${token}`,
      );
    for (const { method, path } of json) {
      for (const [type, body] of OTHER) {
        const res = await send(method, path).set('Content-Type', type).send(body);
        if (res.status !== 415 || !/application\/json/.test(res.body.detail))
          wrong.push(`${method.toUpperCase()} ${path} (${type}): ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
    // The sweep's case, named: addDevice and editDevice with a text body were a 500 in device.schema.ts.
    expect((await send('post', '/api/v1/addDevice').set('Content-Type', 'text/plain').send('x')).status).toBe(415);
    expect((await send('put', '/api/v1/editDevice/SP240001').set('Content-Type', 'text/plain').send('x')).status).toBe(415);
    // Their own formats: a body-less POST ignores a stray body, the gateway and the webhook answer as before (never 415).
    expect((await send('post', '/api/v1/resumeBatch/999999').set('Content-Type', 'text/plain').send('x')).status).not.toBe(415);
    expect(
      (await request(h.app).post('/device/v1/checkin').set('Authorization', device).set('Content-Type', 'text/plain').send('x'))
        .status,
    ).not.toBe(415);
    expect((await request(h.app).post('/api/billing/webhook').set('Content-Type', 'text/plain').send('x')).status).not.toBe(415);
    // A multipart call still takes multipart, and a JSON call JSON; an empty body reaches the schema (400 naming fields).
    expect((await send('post', '/api/v1/editUser/client@demo.test').field('username', 'Client Demo')).status).toBe(200);
    expect((await send('post', '/api/v1/addDevice').send({})).status).toBe(400);
    expect(
      (await send('post', '/api/v1/addDevice').set('Content-Type', 'application/json').set('Content-Length', '0')).status,
    ).toBe(400);
  });

  it('multipart writes: an oversize file, a non-image posing as one, too many parts, a text field too long, two files, a cut body: each a 4xx, nothing saved', async () => {
    const auth = { Authorization: `Token ${token}` };
    const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const uploads = path.join(h.dataDir, 'uploads');
    const files = () => (fs.existsSync(uploads) ? fs.readdirSync(uploads, { recursive: true }).map(String).sort() : []);
    const brands = async () => (await request(h.app).get('/api/v1/brand').set(auth)).body as { id: number; name: string }[];
    const client = async () => (await h.database.db.select().from(users).where(eq(users.email, 'client@demo.test')))[0];
    const brandId = (await brands())[0]!.id;
    // Each route with the text field a half-save would show (valid on its own: see the control below).
    const routes = [
      { name: 'editUser', start: () => request(h.app).post('/api/v1/editUser/client@demo.test').set(auth), field: 'username' },
      { name: 'addBrand', start: () => request(h.app).post('/api/v1/addBrand').set(auth), field: 'name' },
      { name: 'brand/{id}', start: () => request(h.app).put(`/api/v1/brand/${brandId}`).set(auth), field: 'name' },
    ];
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>');
    const CASES: [string, (r: request.Test, field: string) => request.Test, number[]][] = [
      [
        'oversize file',
        (r, f) =>
          r.field(f, 'Hostile Renamed').attach('image', Buffer.concat([PNG, Buffer.alloc(BRAND_IMAGE_MAX_BYTES)]), {
            filename: 'big.png',
            contentType: 'image/png',
          }),
        [413],
      ],
      [
        'an SVG posing as a PNG',
        (r, f) => r.field(f, 'Hostile Renamed').attach('image', svg, { filename: 'logo.png', contentType: 'image/png' }),
        [400],
      ],
      [
        'a text file posing as a JPEG',
        (r, f) =>
          r
            .field(f, 'Hostile Renamed')
            .attach('image', Buffer.from('just text, not a picture'), { filename: 'photo.jpg', contentType: 'image/jpeg' }),
        [400],
      ],
      [
        'too many parts',
        (r, f) =>
          Array.from({ length: 14 }, (_, i) => i).reduce((q, i) => q.field(`extra${i}`, 'x'), r.field(f, 'Hostile Renamed')),
        [400, 413],
      ],
      [
        'a text field too long',
        (r, f) => r.field(f, 'Hostile '.repeat(3000)).attach('image', PNG, { filename: 'logo.png', contentType: 'image/png' }),
        [400, 413],
      ],
      [
        'two files',
        (r, f) =>
          r
            .field(f, 'Hostile Renamed')
            .attach('image', PNG, { filename: 'a.png', contentType: 'image/png' })
            .attach('image', PNG, { filename: 'b.png', contentType: 'image/png' }),
        [400],
      ],
      [
        'a file in another field',
        (r, f) => r.field(f, 'Hostile Renamed').attach('avatar', PNG, { filename: 'a.png', contentType: 'image/png' }),
        [400],
      ],
      [
        'a body cut off mid-part',
        (r) =>
          r
            .set('Content-Type', 'multipart/form-data; boundary=XyZ')
            .send(
              '--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nHostile Renamed\r\n--XyZ\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
            ),
        [400],
      ],
    ];
    const before = { files: files(), brands: await brands(), client: await client() };
    const wrong: string[] = [];
    for (const route of routes) {
      for (const [name, build, expected] of CASES) {
        const res = await build(route.start(), route.field);
        if (!expected.includes(res.status))
          wrong.push(
            `${route.name} (${name}): ${res.status}, expected ${expected.join('/')} ${JSON.stringify(res.body).slice(0, 160)}`,
          );
      }
    }
    expect(wrong).toEqual([]);
    // Nothing half-saved: no brand added or renamed, the user unchanged, no file left in uploads.
    expect(await brands()).toEqual(before.brands);
    expect(await client()).toEqual(before.client);
    expect(files()).toEqual(before.files);
    // Control: the same routes with a real image and a fair name do save (the refusals above were the hostile part's).
    const saved = await routes[1]!
      .start()
      .field('name', 'Hostile Control')
      .attach('image', PNG, { filename: 'logo.png', contentType: 'image/png' });
    expect(saved.status).toBe(201);
    expect(files().length).toBe(before.files.length + 1);
    expect((await routes[0]!.start().field('username', 'Hostile Control')).status).toBe(200);
    expect((await client())!.username).toBe('Hostile Control');
  });
});
