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
  $countyFailed,
  countyToggled,
  fetchBatchesFx,
  fetchCountyPageFx,
  fetchStatusCountsFx,
  STATUS_LIST_LIMIT,
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

describe('/status of a fleet too large to list whole', () => {
  const counts = (total: number, online: number) => ({
    total,
    online,
    registering: 0,
    offline: total - online,
    warning: 0,
    paused: 0,
    maintenance: 0,
    lowBattery: 0,
  });
  // The server's counts: county 1 holds FLEET's first three devices (and more the server counted), county 2 and none more.
  const COUNTED = {
    counts: counts(STATUS_LIST_LIMIT + 1, 1_000),
    counties: [
      { id: 1, counts: counts(1_500, 700) },
      { id: 2, counts: counts(400, 200) },
      { id: null, counts: counts(101, 100) },
    ],
  };
  function large(options: { countyFails?: boolean } = {}) {
    const pages: (string | null)[] = [];
    const countyReads: { county: number; cursor: string | null }[] = [];
    const scope = fork({
      handlers: [
        [
          fetchStatusPageFx,
          async (cursor: string | null) => (
            pages.push(cursor),
            { items: FLEET.slice(0, 2), nextCursor: '2', total: STATUS_LIST_LIMIT + 1 }
          ),
        ],
        [fetchStatusCountsFx, async () => COUNTED],
        [
          fetchCountyPageFx,
          async (params: { county: number; cursor: string | null }) => {
            countyReads.push(params);
            if (options.countyFails) throw new Error('down');
            const mine = FLEET.filter((d) => d.location_id === params.county);
            const from = params.cursor ? Number(params.cursor) : 0;
            return {
              items: mine.slice(from, from + 2),
              nextCursor: from + 2 < mine.length ? String(from + 2) : null,
              total: mine.length,
            };
          },
        ],
        [fetchSitesFx, async () => []],
        [fetchBatchesFx, async () => []],
      ],
    });
    return { scope, pages, countyReads };
  }

  it("lists the counties with the server's counts, reading no device until one is opened", async () => {
    const { scope, pages } = large();
    await allSettled(statusPageMounted, { scope });
    expect(pages).toEqual([null]);
    expect(scope.getState($status)).toBe('ready');
    expect(scope.getState($statusDevices)).toEqual({});
    expect(scope.getState($liveSerials)).toEqual([]);
    const report = scope.getState($report);
    expect(report.counties.map((c) => [c.id, c.listing, c.counts.total, c.rows.length])).toEqual([
      [1, 'closed', 1_500, 0],
      [2, 'closed', 400, 0],
      [null, 'closed', 101, 0],
    ]);
    expect(report.counts).toEqual(COUNTED.counts);
  });

  it('an opened county reads its devices, lists and counts them live; closed, lets them go', async () => {
    const { scope, countyReads } = large();
    await allSettled(statusPageMounted, { scope });
    await allSettled(countyToggled, { scope, params: 1 });
    expect(countyReads).toEqual([
      { county: 1, cursor: null },
      { county: 1, cursor: '2' },
    ]);
    expect([...scope.getState($liveSerials)].sort()).toEqual(['S1', 'S2', 'S3']);
    let report = scope.getState($report);
    const one = report.counties.find((c) => c.id === 1)!;
    expect(one.listing).toBe('open');
    expect(one.rows.map((r) => r.serial)).toEqual(['S1', 'S2', 'S3']);
    // Its counts are its devices' (S1 and S3 online), and the summary is the sum of the sections.
    expect(one.counts).toMatchObject({ total: 3, online: 2, offline: 1 });
    expect(report.counts).toMatchObject({ total: 3 + 400 + 101, online: 2 + 200 + 100 });
    // A push changes its row and the counts.
    await allSettled(devicesPatched, { scope, params: { S2: { is_online: true } } });
    report = scope.getState($report);
    expect(report.counties.find((c) => c.id === 1)!.counts).toMatchObject({ total: 3, online: 3 });
    expect(report.counts.online).toBe(3 + 200 + 100);
    // Closed: its devices and their pushes let go, its counts the server's again.
    await allSettled(countyToggled, { scope, params: 1 });
    expect(scope.getState($statusDevices)).toEqual({});
    expect(scope.getState($liveSerials)).toEqual([]);
    report = scope.getState($report);
    expect(report.counties.find((c) => c.id === 1)).toMatchObject({ listing: 'closed', rows: [] });
    expect(report.counts).toEqual(COUNTED.counts);
  });

  it('a county whose devices cannot be read says so and stays closed', async () => {
    const { scope } = large({ countyFails: true });
    await allSettled(statusPageMounted, { scope });
    await allSettled(countyToggled, { scope, params: 2 });
    expect(scope.getState($countyFailed)).toBe(2);
    expect(scope.getState($report).counties.find((c) => c.id === 2)!.listing).toBe('closed');
    expect(scope.getState($status)).toBe('ready');
  });
});
