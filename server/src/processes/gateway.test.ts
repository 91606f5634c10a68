import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { createGatewayApp } from './gateway.ts';

// The routes' shape only: a check-in stored through this app on PostgreSQL, in its own process, is in
// tests/integration/ops-scaled.test.ts. Nothing here reaches the database (refused before a query).
const unusedDb = new Proxy({}, { get: () => () => Promise.reject(new Error('no database in this test')) }) as unknown as Db;
const app = (up = true) =>
  createGatewayApp({
    config: {
      secretKey: 'k'.repeat(32),
      checkinSynchronousCommit: 'off',
      publicUrl: 'http://localhost:8080',
      mapStyleUrl: undefined,
      googleMapsApiKey: undefined,
      trustProxy: false,
    },
    database: { db: unusedDb, ping: async () => up },
    log: () => undefined,
    metrics: {
      contentType: 'text/plain; version=0.0.4; charset=utf-8',
      text: async () => 'device_checkins_total{outcome="accepted"} 0\n',
    },
  });

describe('the gateway role app', () => {
  it('answers its health from the database alone (no Redis in it)', async () => {
    expect((await request(app()).get('/readyz')).body).toEqual({ status: 'ready', database: 'up' });
    const down = await request(app(false)).get('/readyz');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ status: 'unavailable', database: 'down' });
    expect((await request(app()).get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(app()).get('/metrics')).text).toContain('device_checkins_total');
  });

  it("refuses a check-in without device credentials with the gateway's 401", async () => {
    const res = await request(app()).post('/device/v1/checkin').send({ sentAt: new Date().toISOString() });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: 'Invalid device credentials.' });
  });

  it('serves nothing of the portal: its calls, sign-in and pages are 404', async () => {
    for (const [method, path] of [
      ['get', '/api/v1/device'],
      ['post', '/auth/token/login/'],
      ['get', '/'],
      ['get', '/socket.io/?EIO=4&transport=polling'],
    ] as const) {
      const res = await request(app())[method](path);
      expect(res.status, path).toBe(404);
    }
  });
});
