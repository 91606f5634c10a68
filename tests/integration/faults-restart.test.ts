import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import { devices } from '../../server/src/db/schema.ts';
import { demoSimulatorDevices } from '../../server/src/seed/demo-simulator-keys.ts';
import { startDemoSimulator } from '../../workers/src/simulator/simulator.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Promise: restarts keep devices working. The in-process demo simulator keys only the demo's devices that
 * have no secret, keeps the secrets it gave across a restart (derived from SECRET_KEY), and never re-keys a
 * device it did not key (here: one a distributor rotated). Two starts of the portal on the same PGlite files.
 */
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('demo simulator across a restart (PGlite on files)', () => {
  const pgliteDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-restart-'));
  const ROTATED = 'SP240005';
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.close();
    fs.rmSync(pgliteDir, { recursive: true, force: true });
  });

  /** One start: the portal listening, the demo simulator playing at 3600x for `ms`; answers its stats. */
  async function run(harness: Harness, ms: number) {
    const server = http.createServer(harness.app);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const logs: string[] = [];
    const sim = await startDemoSimulator(
      {
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        listDevices: async () => (await demoSimulatorDevices(harness.database.db, harness.config.secretKey)).devices,
      },
      (m) => logs.push(m),
      { SIMULATOR_SPEED: '3600' },
    );
    await sleep(ms);
    const stats = sim.stats();
    await sim.stop();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    return stats;
  }
  const checkin = (harness: Harness, serial: string, secret: string) =>
    request(harness.app)
      .post('/device/v1/checkin')
      .set('Authorization', `Basic ${Buffer.from(`${serial}:${secret}`).toString('base64')}`)
      .send({ sentAt: new Date().toISOString() });

  it("keys the demo devices once, keeps their secrets and a rotated device's own secret across a restart", async () => {
    h = await startHarness('pglite', {}, { pgliteDir });
    const secretKey = h.config.secretKey;
    const admin = (await request(h.app).post('/auth/token/login/').send({ email: 'distributor@demo.test', password: 'Demo1234' }))
      .body.auth_token;
    // A distributor gives one demo device its own secret before the simulator ever runs.
    const rotated = (await request(h.app).post(`/api/v1/deviceSecret/${ROTATED}`).set('Authorization', `Token ${admin}`)).body
      .secret as string;

    const first = await demoSimulatorDevices(h.database.db, secretKey);
    expect(first.keyed).toBe(first.devices.length);
    expect(first.devices.length).toBeGreaterThan(40);
    expect(first.devices.map((d) => d.serial)).not.toContain(ROTATED);
    expect(first.devices.every((d) => /^SP24/.test(d.serial))).toBe(true);
    const firstRun = await run(h, 3000);
    expect(firstRun.checkins).toBeGreaterThan(0);
    expect(firstRun.stopped).toBe(0);
    const hashes = new Map(
      (await h.database.db.select({ serial: devices.serial, hash: devices.secretHash }).from(devices)).map((r) => [
        r.serial,
        r.hash,
      ]),
    );

    // Restart: the same database files, a new app.
    await h.close();
    h = await startHarness('pglite', { secretKey }, { pgliteDir });
    const second = await demoSimulatorDevices(h.database.db, secretKey);
    expect(second.keyed).toBe(0);
    // The same devices with the same secrets; their state (battery, volumes) is what the first run's check-ins
    // left, which the simulator now starts from (issue 47).
    const keys = (list: typeof first.devices) =>
      list.map((d) => ({
        serial: d.serial,
        secret: d.secret,
        timezone: d.timezone,
        leftPumpType: d.leftPumpType,
        rightPumpType: d.rightPumpType,
      }));
    expect(keys(second.devices)).toEqual(keys(first.devices));
    const after = new Map(
      (await h.database.db.select({ serial: devices.serial, hash: devices.secretHash }).from(devices)).map((r) => [
        r.serial,
        r.hash,
      ]),
    );
    expect(after).toEqual(hashes);

    // The secrets from before the restart still check in: the simulator's and the distributor's.
    for (const d of first.devices.slice(0, 5)) expect((await checkin(h, d.serial, d.secret)).status).toBe(200);
    expect((await checkin(h, ROTATED, rotated)).status).toBe(200);
    const secondRun = await run(h, 3000);
    expect(secondRun.stopped).toBe(0);
    expect(secondRun.checkins).toBeGreaterThan(0);
    const [still] = await h.database.db.select({ hash: devices.secretHash }).from(devices).where(eq(devices.serial, ROTATED));
    expect(still!.hash).toBe(hashes.get(ROTATED));
  }, 180_000);
});
