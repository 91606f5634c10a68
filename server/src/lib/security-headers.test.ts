import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import helmet from 'helmet';
import { helmetOptions, securityHeaders } from './security-headers.ts';

/** The Content-Security-Policy an app with these settings sends, as directive -> sources. */
async function policy(config: Parameters<typeof securityHeaders>[0]): Promise<Record<string, string[]>> {
  const app = express();
  app.use(securityHeaders(config));
  app.get('/', (_req, res) => res.send('ok'));
  const answer = await request(app).get('/');
  expect(answer.status).toBe(200);
  const header = answer.headers['content-security-policy'] as string;
  return Object.fromEntries(
    header
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

// tests/integration/security-headers.test.ts reads the whole app's headers; these are the policy's rules for
// MAP_STYLE_URL on their own: the origin with its port, never the path, nothing for a style on this server.
describe('securityHeaders: an operator map style (MAP_STYLE_URL) under the CSP', () => {
  it("lets the page fetch a cross-origin style and its tiles, glyphs and sprites from the style's origin, and nothing more", async () => {
    const csp = await policy({
      publicUrl: 'http://portal.test',
      mapStyleUrl: 'https://tiles.example.org:8443/styles/basemap.json?key=public',
    });
    // The style JSON, a pmtiles:// archive's range requests, glyphs and sprite JSON are fetches (connect-src);
    // the sprite image may be an <img> load (img-src). The origin only, not the style's path or query.
    expect(csp['connect-src']).toEqual(["'self'", 'https://tiles.example.org:8443']);
    expect(csp['img-src']).toContain('https://tiles.example.org:8443');
    // Scripts stay this origin's only: a style never runs code.
    expect(csp['script-src']).toEqual(["'self'"]);
    expect(csp['default-src']).toEqual(["'self'"]);
  });

  it('adds no origin for a style served by the portal itself (a path) or with no style', async () => {
    for (const mapStyleUrl of ['/basemap/style.json', undefined]) {
      const csp = await policy({ publicUrl: 'http://portal.test', mapStyleUrl });
      expect(csp['connect-src'], String(mapStyleUrl)).toEqual(["'self'"]);
      expect(csp['img-src'], String(mapStyleUrl)).toEqual(["'self'", 'data:', 'blob:']);
    }
  });
});

describe('securityHeaders: set once, the same as helmet on every answer', () => {
  /** The headers an app answers a request with, but those Express and Node add themselves. */
  const headersOf = async (middleware: express.RequestHandler, send: (agent: request.Agent) => request.Test) => {
    const app = express();
    app.use(middleware);
    app.use(express.json());
    app.all('/{*rest}', (_req, res) => void res.status(201).json({ ok: true }));
    const answer = await send(request.agent(app));
    const {
      date: _date,
      connection: _connection,
      etag: _etag,
      'content-length': _length,
      'x-powered-by': poweredBy,
      ...rest
    } = answer.headers as Record<string, string>;
    return { ...rest, poweredBy } as Record<string, string | undefined>;
  };
  for (const config of [
    { publicUrl: 'http://portal.test' },
    {
      publicUrl: 'https://portal.example.com',
      mapStyleUrl: 'https://tiles.example.org/style.json',
      googleMapsApiKey: 'test-key-not-a-secret',
    },
  ]) {
    it(`answers what helmet itself answers, whatever the request (${config.publicUrl})`, async () => {
      const requests: ((agent: request.Agent) => request.Test)[] = [
        (agent) => agent.get('/'),
        (agent) => agent.post('/device/v1/checkin').send({ dispenses: [] }),
        (agent) => agent.get('/api/v1/device?x=1').set('Accept-Encoding', 'gzip'),
      ];
      for (const send of requests) {
        const fixed = await headersOf(securityHeaders(config), send);
        expect(fixed).toEqual(await headersOf(helmet(helmetOptions(config)), send));
        expect(fixed['x-frame-options']).toBe('DENY');
        expect(fixed['content-security-policy']).toContain("frame-ancestors 'none'");
      }
    });
  }
});
