import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { osrmSource, travelSourceFor } from './osrm-travel.ts';

/**
 * A local HTTP server answering OSRM's Table API as documented (v5): /table/v1/{profile}/{lng,lat;...}
 * with sources= and destinations= index lists, { code: 'Ok', durations, distances }. Its "road" is the
 * Manhattan distance in degrees: 1 degree = 1000 s and 100 km, so every answer can be checked by hand.
 */
let server: http.Server;
let base = '';
const requests: string[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests.push(req.url!);
    const url = new URL(req.url!, 'http://x');
    const m = /^\/table\/v1\/driving\/(.+)$/.exec(url.pathname);
    if (!m) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 'InvalidUrl', message: 'bad' }));
      return;
    }
    const coords = decodeURIComponent(m[1]!)
      .split(';')
      .map((p) => p.split(',').map(Number) as [number, number]);
    const idx = (name: string) => (url.searchParams.get(name) ?? coords.map((_, i) => i).join(';')).split(';').map(Number);
    const sources = idx('sources');
    const destinations = idx('destinations');
    const deg = (a: number, b: number) => Math.abs(coords[a]![0] - coords[b]![0]) + Math.abs(coords[a]![1] - coords[b]![1]);
    // An island at lng 0: nothing routes to or from it (OSRM answers null).
    const cut = (a: number, b: number) => (coords[a]![0] === 0) !== (coords[b]![0] === 0);
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        code: 'Ok',
        durations: sources.map((a) => destinations.map((b) => (cut(a, b) ? null : deg(a, b) * 1000))),
        distances: sources.map((a) => destinations.map((b) => (cut(a, b) ? null : deg(a, b) * 100_000))),
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('osrmSource (ROUTING_URL)', () => {
  it('reads durations and distances from /table, longitude first', async () => {
    const m = await osrmSource(base).matrix([
      { lat: 30, lng: -90 },
      { lat: 30.5, lng: -90 },
      { lat: 30, lng: -89 },
    ]);
    expect(m.source).toBe('osrm');
    expect(m.seconds).toEqual([
      [0, 500, 1000],
      [500, 0, 1500],
      [1000, 1500, 0],
    ]);
    expect(m.metres[0]![2]).toBe(100_000);
    expect(requests.at(-1)).toMatch(
      /^\/table\/v1\/driving\/-90\.000000,30\.000000;-90\.000000,30\.500000;-89\.000000,30\.000000;/,
    );
    expect(requests.at(-1)).toContain('annotations=duration,distance');
  });

  it('asks a large matrix in blocks, and a pair nobody can route is unreachable', async () => {
    requests.length = 0;
    const points = Array.from({ length: 120 }, (_, i) => ({ lat: 30 + i * 0.01, lng: i === 7 ? 0 : -90 }));
    const m = await osrmSource(base).matrix(points);
    expect(requests.length).toBe(9); // 3 x 3 blocks of 50
    expect(m.seconds[3]![110]).toBeCloseTo(1070, 6);
    expect(m.seconds[110]![3]).toBeCloseTo(1070, 6);
    expect(m.seconds[7]![0]).toBeGreaterThanOrEqual(1e9);
  });

  it('a refusal is an error (the plan answers 502), and without ROUTING_URL the built-in estimate is used', async () => {
    await expect(osrmSource(`${base}/nope`).matrix([{ lat: 1, lng: 1 }])).rejects.toThrow(/routing service/);
    expect(travelSourceFor(undefined).name).toBe('great-circle');
    expect(travelSourceFor(base).name).toBe('osrm');
  });
});
