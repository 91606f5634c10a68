/**
 * What the portal's answer-wide middlewares cost a small JSON call (a device check-in's size: a 30-point
 * body in, a config answer of about 400 bytes out): bare Express beside helmet's chain with `compression`
 * (as every answer went through them before) and the portal's own securityHeaders + compressAnswers (the
 * same headers worked out once; `compression` only for a caller that accepts an encoding). autocannon, 20
 * connections, 5 s a run, three runs each, in this process: compare the rows of one run, not runs.
 *
 *   npx tsx tests/bench/middleware.bench.ts
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import compression from 'compression';
import express, { type RequestHandler } from 'express';
import helmet from 'helmet';
import autocannon from 'autocannon';
import { compressAnswers } from '../../server/src/lib/compression.ts';
import { helmetOptions, securityHeaders } from '../../server/src/lib/security-headers.ts';

const config = { publicUrl: 'http://127.0.0.1' };
const variants: [string, RequestHandler[]][] = [
  ['bare Express', []],
  ["helmet's chain + compression (before)", [helmet(helmetOptions(config)), compression({ threshold: 1024 })]],
  ['securityHeaders + compressAnswers (now)', [securityHeaders(config), compressAnswers()]],
];
const body = JSON.stringify({
  dispenses: Array.from({ length: 30 }, (_, k) => ({
    pump: 1,
    seq: k,
    at: new Date(Date.UTC(2026, 10, 28, 12, k)).toISOString(),
    ml: 1.2,
  })),
});
for (const [name, middlewares] of variants) {
  const app = express();
  app.disable('x-powered-by');
  for (const middleware of middlewares) app.use(middleware);
  app.use(express.json());
  app.post(
    '/checkin',
    (req, res) =>
      void res.json({ stored: (req.body as { dispenses: unknown[] }).dispenses.length, config: { note: 'x'.repeat(360) } }),
  );
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const result = await autocannon({
      url: `http://127.0.0.1:${port}/checkin`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      connections: 20,
      duration: 5,
    });
    runs.push(Math.round(result.requests.average));
  }
  server.close();
  console.log(`${name.padEnd(42)} ${runs.map((n) => n.toLocaleString('en-US')).join(', ')} answers/s`);
}
