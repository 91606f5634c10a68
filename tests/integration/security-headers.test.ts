import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/src/app.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Promise: security headers on pages and API (server/src/lib/security-headers.ts), read without a browser.
 * The Content-Security-Policy is parsed directive by directive: scripts and connections from this origin
 * only (no inline script, no eval), what the offline map needs (blob: workers, blob:/data: images) and an
 * operator's MAP_STYLE_URL origin, Google's origins only with a key; no framing; X-Frame-Options,
 * X-Content-Type-Options and Referrer-Policy on every answer, API errors included; uploaded files under
 * a stricter policy of their own; the API docs page's inline script allowed by its hash only.
 * (tests/e2e/security-headers.test.ts checks the app and the map really run under this policy.)
 */
type Csp = Map<string, string[]>;
function parseCsp(header: string | undefined): Csp {
  expect(header, 'Content-Security-Policy header').toBeTruthy();
  const csp: Csp = new Map();
  for (const part of header!
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, ...values] = part.split(/\s+/);
    expect(csp.has(name!), `directive ${name} twice`).toBe(false);
    csp.set(name!, values);
  }
  return csp;
}

let h: Harness;
let clientDir = '';
const apps: ReturnType<typeof createApp>[] = [];
/** The app as main.ts builds it, serving a built client (an index.html) from clientDir. */
function portal(over: Partial<Harness['config']> = {}) {
  const app = createApp({
    config: { ...h.config, ...over },
    database: h.database,
    mailer: createMailer({ smtpUrl: h.config.smtpUrl, from: 'x@y.test', outboxDir: path.join(h.dataDir, 'outbox') }),
    clientDir,
    log: () => undefined,
  });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  h = await startHarness('pglite');
  clientDir = path.join(h.dataDir, 'client');
  fs.mkdirSync(path.join(clientDir, 'assets'), { recursive: true });
  fs.writeFileSync(
    path.join(clientDir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body><div id="root"></div></body></html>',
  );
  fs.writeFileSync(path.join(clientDir, 'assets', 'app.js'), 'console.log(1)');
});
afterAll(async () => {
  for (const app of apps) await app.queue.close();
  await h?.close();
});

describe('security headers without a browser', () => {
  it('the page policy, directive by directive: scripts and connections from this origin only, what the map needs, no framing', async () => {
    const app = portal();
    const page = await request(app).get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const csp = parseCsp(page.headers['content-security-policy']);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    // No inline script, no eval, no data: or other origin for scripts.
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('script-src-attr')).toBeUndefined();
    // REST and the Socket.IO websocket are same-origin: a script that did run could not send a token away.
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    // MapLibre: its worker from a blob:, tiles and sprites as blob:/data: images.
    expect(csp.get('worker-src')).toEqual(["'self'", 'blob:']);
    expect(csp.get('img-src')).toEqual(["'self'", 'data:', 'blob:']);
    // Styles may be inline (MapLibre and ApexCharts write style elements; a style cannot run code).
    expect(csp.get('style-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
    expect(csp.get('form-action')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    const all = [...csp.values()].flat();
    expect(all).not.toContain("'unsafe-eval'");
    expect([...csp].filter(([, v]) => v.includes("'unsafe-inline'")).map(([k]) => k)).toEqual(['style-src']);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    // Plain http (the development default): no HSTS, no upgrade (they would break same-origin requests).
    expect(page.headers['strict-transport-security']).toBeUndefined();
    expect(csp.has('upgrade-insecure-requests')).toBe(false);
    // The page's own script is a file of this origin, which the policy allows.
    expect((await request(app).get('/assets/app.js')).status).toBe(200);
  });

  it('every API answer carries the same headers: successes, refusals, errors, 404s, the public calls', async () => {
    const app = portal();
    const token = (await request(app).post('/auth/token/login/').send({ email: 'client@demo.test', password: 'Demo1234' })).body
      .auth_token as string;
    const answers = [
      await request(app).get('/api/v1/user').set('Authorization', `Token ${token}`),
      await request(app).get('/api/v1/device'),
      await request(app).post('/auth/token/login/').send({ email: 'client@demo.test', password: 'Wrong1234' }),
      await request(app)
        .post('/api/v1/addEmail')
        .set('Authorization', `Token ${token}`)
        .set('Content-Type', 'application/json')
        .send('{"email": '),
      await request(app).get('/api/v1/no-such-call').set('Authorization', `Token ${token}`),
      await request(app).get('/healthz'),
      await request(app).get('/api/openapi.json'),
      await request(app).post('/device/v1/checkin').send({}),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 400, 400, 404, 200, 200, 401]);
    const names = [
      'GET /api/v1/user',
      'GET /api/v1/device (no token)',
      'POST /auth/token/login/ (wrong)',
      'POST /api/v1/addEmail (malformed JSON)',
      'GET /api/v1/no-such-call',
      'GET /healthz',
      'GET /api/openapi.json',
      'POST /device/v1/checkin (no credential)',
    ];
    for (const [i, res] of answers.entries()) {
      const where = names[i]!;
      expect(res.headers['x-frame-options'], where).toBe('DENY');
      expect(res.headers['x-content-type-options'], where).toBe('nosniff');
      expect(res.headers['referrer-policy'], where).toBe('no-referrer');
      const csp = parseCsp(res.headers['content-security-policy']);
      expect(csp.get('script-src'), where).toEqual(["'self'"]);
      expect(csp.get('frame-ancestors'), where).toEqual(["'none'"]);
    }
  });

  it('an operator map style adds its origin to what may be fetched; Google only with a key; https adds HSTS', async () => {
    const styled = parseCsp(
      (await request(portal({ mapStyleUrl: 'https://tiles.example.com/styles/basic.json' })).get('/')).headers[
        'content-security-policy'
      ],
    );
    expect(styled.get('connect-src')).toEqual(["'self'", 'https://tiles.example.com']);
    expect(styled.get('img-src')).toContain('https://tiles.example.com');
    expect(styled.get('script-src')).toEqual(["'self'"]);

    const google = parseCsp(
      (await request(portal({ googleMapsApiKey: 'test-key-not-a-secret' })).get('/')).headers['content-security-policy'],
    );
    expect(google.get('script-src')).toContain('https://maps.googleapis.com');
    expect(google.get('script-src')).not.toContain("'unsafe-eval'");
    expect(google.get('script-src')).not.toContain("'unsafe-inline'");

    const secure = await request(portal({ publicUrl: 'https://portal.example.com' })).get('/');
    expect(secure.headers['strict-transport-security']).toMatch(/max-age=31536000; includeSubDomains/);
    expect(parseCsp(secure.headers['content-security-policy']).has('upgrade-insecure-requests')).toBe(true);
  });

  it('uploaded files carry a stricter policy: nothing in them runs, nothing loads', async () => {
    const app = portal();
    const brands = fs.readdirSync(path.join(h.dataDir, 'uploads', 'brands'));
    const logo = brands.find((f) => f.endsWith('.svg'))!;
    expect(logo).toBeTruthy();
    const res = await request(app).get(`/uploads/brands/${logo}`);
    expect(res.status).toBe(200);
    const csp = parseCsp(res.headers['content-security-policy']);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toBeUndefined(); // falls back to default-src 'none'
    expect(csp.get('img-src')).toEqual(["'self'"]);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('the API docs page may run its own inline script, by hash, and nothing else', async () => {
    const res = await request(portal()).get('/api/docs');
    expect(res.status).toBe(200);
    const csp = parseCsp(res.headers['content-security-policy']);
    const scripts = csp.get('script-src')!;
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.every((s) => /^'sha256-[A-Za-z0-9+/]+=*'$/.test(s))).toBe(true);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
  });
});
