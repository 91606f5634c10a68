import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import autocannon from './lean-autocannon.ts';

describe('the benches run autocannon without keeping answer bodies', () => {
  const body = zlib.gzipSync(Buffer.from(JSON.stringify(Array.from({ length: 2000 }, (_, i) => [i, `SN${i}`, Math.random()]))));
  let server: http.Server;
  let url = '';
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('counts every answer and its bytes, and hands no body to the response hook', async () => {
    const bodies: string[] = [];
    const result = await autocannon({
      url,
      connections: 2,
      amount: 20,
      requests: [{ onResponse: (_status: number, responseBody: string) => void bodies.push(responseBody) }],
    });
    expect(result.requests.total).toBe(20);
    expect(result.non2xx).toBe(0);
    // Each answer's bytes counted: the body and its headers.
    expect(result.throughput.total).toBeGreaterThanOrEqual(20 * body.length);
    expect(bodies.length).toBe(20);
    expect(bodies.every((b) => b === '')).toBe(true);
  });
});
