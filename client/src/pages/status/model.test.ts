import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $liveSerials, devicesPatched, fetchDevicesFx } from '../../entities/device';
import { fakeDevice } from '../../entities/device/lib/fake-device';
import { STATUS_FIELDS } from './lib/status-report';
import {
  $report,
  $status,
  $statusDevices,
  $statusTotal,
  fetchBatchesFx,
  fetchSitesFx,
  fetchStatusPageFx,
  statusPageLeft,
  statusPageMounted,
} from './model';

const FLEET = Array.from({ length: 5 }, (_, i) =>
  fakeDevice(`S${i + 1}`, { location_id: i < 3 ? 1 : 2, is_online: i % 2 === 0, battery_percent: 20 + i * 20 }),
);

/** A fake GET /api/v1/devicePage over FLEET, two devices a page; the cursors asked for are kept. */
function setup() {
  const cursors: (string | null)[] = [];
  let wholeList = 0;
  const scope = fork({
    handlers: [
      [
        fetchStatusPageFx,
        async (cursor: string | null) => {
          cursors.push(cursor);
          const from = cursor ? Number(cursor) : 0;
          return {
            items: FLEET.slice(from, from + 2),
            nextCursor: from + 2 < FLEET.length ? String(from + 2) : null,
            total: FLEET.length,
          };
        },
      ],
      [fetchDevicesFx, async () => (wholeList++, FLEET)],
      [fetchSitesFx, async () => []],
      [fetchBatchesFx, async () => []],
    ],
  });
  return { scope, cursors, wholeList: () => wholeList };
}

describe('/status reads its devices a page at a time', () => {
  it('follows the cursors to the last page, never reads the whole list, and keeps only the fields it shows', async () => {
    const { scope, cursors, wholeList } = setup();
    await allSettled(statusPageMounted, { scope });
    expect(cursors).toEqual([null, '2', '4']);
    expect(wholeList()).toBe(0);
    expect(scope.getState($status)).toBe('ready');
    expect(scope.getState($statusTotal)).toBe(5);
    const held = scope.getState($statusDevices);
    expect(Object.keys(held)).toEqual(['S1', 'S2', 'S3', 'S4', 'S5']);
    // Their pushes are asked for (the live subscriptions follow what views show).
    expect([...scope.getState($liveSerials)].sort()).toEqual(['S1', 'S2', 'S3', 'S4', 'S5']);
    // Left, the page lets them go (read again on the next visit).
    await allSettled(statusPageLeft, { scope });
    expect(scope.getState($liveSerials)).toEqual([]);
    for (const device of Object.values(held)) for (const key of Object.keys(device)) expect(STATUS_FIELDS).toContain(key);
    const report = scope.getState($report);
    expect(report.counts).toMatchObject({ total: 5, online: 3, offline: 2, lowBattery: 2 });
    expect(report.counties.map((c) => c.counts.total)).toEqual([3, 2]);
  });

  it('a pushed change updates its row and the figures; a device not read is not added by a push', async () => {
    const { scope } = setup();
    await allSettled(statusPageMounted, { scope });
    await allSettled(devicesPatched, {
      scope,
      params: { S2: { is_online: true, battery_percent: 90 }, X9: { is_online: true } },
    });
    expect(scope.getState($statusDevices).S2).toMatchObject({ is_online: true, battery_percent: 90 });
    expect(scope.getState($statusDevices).X9).toBeUndefined();
    expect(scope.getState($report).counts).toMatchObject({ total: 5, online: 4, offline: 1 });
  });

  it('a failed page says so', async () => {
    const failing = fork({
      handlers: [
        [fetchStatusPageFx, async () => Promise.reject(new Error('down'))],
        [fetchSitesFx, async () => []],
        [fetchBatchesFx, async () => []],
      ],
    });
    await allSettled(statusPageMounted, { scope: failing });
    expect(failing.getState($status)).toBe('failed');
  });
});
