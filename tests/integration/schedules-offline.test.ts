/**
 * Fleet health's tick (processes/schedules.ts) names the devices it marked offline: nothing else does (no
 * check-in or portal write happens when a device falls silent), and the map's pin deltas and the pollers
 * hear of it through `devicesChanged` (issue 46: pins follow changes from the change path, not polls).
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../../server/src/db/schema.ts';
import { startSchedules } from '../../server/src/processes/schedules.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

describe('fleet health tick', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('pglite');
  });
  afterAll(async () => h?.close());

  it('names the devices it marked offline, and only those', async () => {
    const db = h.database.db;
    const [silent] = await db
      .select({ serial: devices.serial })
      .from(devices)
      .where(sql`${devices.groupId} is not null`)
      .limit(1);
    // Every placed device heard from just now, one silent for two days (far past its two missed cycles).
    await db.execute(sql`update devices set is_online = true, last_seen_at = now() where group_id is not null`);
    await db
      .update(devices)
      .set({ lastSeenAt: new Date(Date.now() - 2 * 86_400_000) })
      .where(eq(devices.serial, silent!.serial));
    const named: string[][] = [];
    const stop = startSchedules(
      {
        db,
        config: h.config,
        now: () => new Date(),
        sessions: {} as never,
        log: () => undefined,
        queue: {} as never,
        devicesChanged: (serials) => void named.push(serials),
      },
      { fleetHealthEveryMs: 50 },
    );
    try {
      await expect.poll(() => named, { timeout: 10_000 }).toEqual([[silent!.serial]]);
      // The next ticks mark nobody: nothing more is named.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(named).toEqual([[silent!.serial]]);
    } finally {
      stop();
    }
    const [row] = await db.select({ online: devices.isOnline }).from(devices).where(eq(devices.serial, silent!.serial));
    expect(row!.online).toBe(false);
  });
});
