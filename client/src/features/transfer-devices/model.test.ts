import { isPicked, matchesDeviceFilter, type BrandAnswer, type DeviceSelectionInput } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $brands, fetchBrandsFx } from '../../entities/brand';
import { $counties } from '../../entities/county';
import { fetchDevicePinsFx, fetchDevicesFx } from '../../entities/device';
import { fakeDevice } from '../../entities/device/lib/fake-device';
import type { PageFilter } from '../../entities/device/page-list';
import {
  $picks,
  $selectedCount,
  $shownDevice,
  $transferOptions,
  $transferRows,
  assignDevicesFx,
  assignSelectionFx,
  countPicksFx,
  deviceShown,
  deviceToggled,
  moreRowsRequested,
  selectAllClicked,
  transferClicked,
  transferFilterChanged,
  transferOpened,
  transferPages,
  transferResult,
} from './model';

const DEVICES = [
  fakeDevice('A1', { brand: 1, brand_name: 'SunStop', location_id: 1, address: 'Pier 1' }),
  fakeDevice('B2', { brand: 2, brand_name: 'Bayou', location_id: 1, address: 'Pier 1' }),
  fakeDevice('C3', { brand: 2, brand_name: 'Bayou', location_id: 2, address: 'Park' }),
  fakeDevice('D4', { brand: null, brand_name: null, location_id: 2, address: 'Park' }),
];
/** The fake server's page size: small, so the dialog's paging shows. */
const PAGE = 2;

/** The server's resolution of a selection over DEVICES (the rules: tests/integration/device-selection.test.ts). */
const resolve = (selection: DeviceSelectionInput) =>
  DEVICES.filter((d) => isPicked({ steps: selection.steps ?? [], toggled: {} }, d)).map((d) => d.serial);

function setup() {
  const sent: unknown[] = [];
  const counted: unknown[] = [];
  const reads: string[] = [];
  /** The filters GET /api/v1/devicePage was asked for, with each cursor. */
  const pages: { filter: PageFilter; cursor: string | null }[] = [];
  const scope = fork({
    values: [
      [
        $brands,
        [
          { id: 1, name: 'SunStop' },
          { id: 2, name: 'Bayou' },
          { id: 3, name: 'Anchor' },
        ] as BrandAnswer[],
      ],
      [
        $counties,
        {
          type: 'FeatureCollection',
          features: [
            { id: 2, properties: { name: 'Orleans' } },
            { id: 1, properties: { name: 'Jefferson' } },
          ],
        },
      ],
    ],
    handlers: [
      [assignDevicesFx, async (p: unknown) => (sent.push(p), { id: 1, name: 'SunStop' } as BrandAnswer)],
      [
        assignSelectionFx,
        async (p: { selection: DeviceSelectionInput }) => (
          sent.push(p),
          { id: 1, name: 'SunStop', transferred: resolve(p.selection).length } as BrandAnswer & { transferred: number }
        ),
      ],
      [
        countPicksFx,
        async (selection: DeviceSelectionInput) => (counted.push(selection), { total: resolve(selection).length, serials: [] }),
      ],
      // The server's GET /api/v1/devicePage: the filter by the shared rule, PAGE devices at a time.
      [
        transferPages.fetchPageFx,
        async ({ filter, cursor }: { filter: PageFilter; cursor: string | null }) => {
          pages.push({ filter, cursor });
          const hits = DEVICES.filter((d) => matchesDeviceFilter(filter, d));
          const from = cursor === null ? 0 : Number(cursor);
          const next = from + PAGE < hits.length ? String(from + PAGE) : null;
          return { items: hits.slice(from, from + PAGE), nextCursor: next, total: hits.length };
        },
      ],
      [fetchDevicesFx, async () => (reads.push('devices'), DEVICES)],
      [fetchDevicePinsFx, async () => (reads.push('pins'), new Map())],
      [fetchBrandsFx, async () => (reads.push('brands'), [])],
      [transferResult.timerFx, async () => -1],
    ] as never,
  });
  return { scope, sent, reads, counted, pages };
}
/** Every row the dialog can show: its pages read to the end, as scrolling to the bottom does. */
async function allRows(scope: ReturnType<typeof fork>) {
  for (let i = 0; i < 5; i++) await allSettled(moreRowsRequested, { scope });
  return scope.getState($transferRows).map((d) => d.serial);
}
const ticked = (scope: ReturnType<typeof fork>) =>
  scope
    .getState($transferRows)
    .filter((d) => isPicked(scope.getState($picks), d))
    .map((d) => d.serial);

describe("'Add Device To {brand}'", () => {
  it('reads the devices of other brands from the server a page at a time, filtered by District, Address and Brand', async () => {
    const { scope, pages, reads } = setup();
    await allSettled(transferOpened, { scope, params: 1 });
    // One page first; the rest as the table scrolls.
    expect(scope.getState($transferRows).map((d) => d.serial)).toEqual(['B2', 'C3']);
    expect(scope.getState(transferPages.$total)).toBe(3);
    expect(await allRows(scope)).toEqual(['B2', 'C3', 'D4']);
    expect(pages.slice(0, 2)).toEqual([
      { filter: { notBrand: 1 }, cursor: null },
      { filter: { notBrand: 1 }, cursor: '2' },
    ]);
    // Every county and every other brand; the addresses of the rows read.
    expect(scope.getState($transferOptions)).toEqual({
      addresses: ['Park', 'Pier 1'],
      brands: [
        [3, 'Anchor'],
        [2, 'Bayou'],
      ],
      districts: [1, 2],
    });
    await allSettled(transferFilterChanged, { scope, params: { district: 2 } });
    expect(await allRows(scope)).toEqual(['C3', 'D4']);
    await allSettled(transferFilterChanged, { scope, params: { brand: 'none' } });
    expect(await allRows(scope)).toEqual(['D4']);
    expect(pages.at(-1)!.filter).toEqual({ notBrand: 1, county: 2, noBrand: true });
    await allSettled(transferFilterChanged, { scope, params: { district: null, brand: 2, address: 'Pier 1' } });
    expect(await allRows(scope)).toEqual(['B2']);
    expect(pages.at(-1)!.filter).toEqual({ notBrand: 1, brand: 2, address: 'Pier 1' });
    // The whole device list is never read for the dialog.
    expect(reads).toEqual([]);
  });

  it('the detail card shows the device chosen, and keeps it while a filter hides its row', async () => {
    const { scope } = setup();
    await allSettled(transferOpened, { scope, params: 1 });
    await allSettled(deviceShown, { scope, params: 'C3' });
    expect(scope.getState($shownDevice)?.serial).toBe('C3');
    await allSettled(transferFilterChanged, { scope, params: { district: 1 } });
    expect(scope.getState($transferRows).map((d) => d.serial)).toEqual(['B2']);
    expect(scope.getState($shownDevice)?.address).toBe('Park');
  });

  it('Select All takes every row shown (again: none); Transfer needs one and sends the serials ticked', async () => {
    const { scope, sent, reads, counted } = setup();
    await allSettled(transferOpened, { scope, params: 1 });
    await allSettled(transferClicked, { scope });
    expect(sent).toEqual([]);
    await allSettled(transferFilterChanged, { scope, params: { district: 2 } });
    await allSettled(selectAllClicked, { scope });
    expect(ticked(scope)).toEqual(['C3', 'D4']);
    // Select All is the filter, which the server counts.
    expect(counted.at(-1)).toEqual({ steps: [{ op: 'select', filter: { notBrand: 1, county: 2 } }] });
    expect(scope.getState($selectedCount)).toBe(2);
    await allSettled(selectAllClicked, { scope });
    expect(ticked(scope)).toEqual([]);
    expect(scope.getState($selectedCount)).toBe(0);
    await allSettled(transferClicked, { scope });
    expect(sent).toEqual([]);
    // Rows ticked one by one (no Select All among the picks): the spec's call with their serials.
    await allSettled(transferOpened, { scope, params: 1 });
    await allRows(scope);
    await allSettled(deviceToggled, { scope, params: 'B2' });
    await allSettled(deviceToggled, { scope, params: 'D4' });
    await allSettled(deviceToggled, { scope, params: 'B2' });
    await allSettled(transferClicked, { scope });
    expect(sent).toEqual([{ brandId: 1, deviceSerials: ['D4'] }]);
    expect(scope.getState(transferResult.$result)).toMatchObject({
      title: 'DEVICES TRANSFERRED',
      message: '1 device now belongs to SunStop.',
    });
    // The brands and pins are read again; the whole device list is not (no view of it was open).
    expect(reads.sort()).toEqual(['brands', 'pins']);
  });

  it("a Select All moves its filter in one server call, not a list of serials; the count is the server's", async () => {
    const { scope, sent, counted } = setup();
    await allSettled(transferOpened, { scope, params: 1 });
    await allSettled(transferFilterChanged, { scope, params: { brand: 2 } });
    await allSettled(selectAllClicked, { scope });
    await allSettled(deviceToggled, { scope, params: 'C3' });
    const selection = {
      steps: [
        { op: 'select', filter: { notBrand: 1, brand: 2 } },
        { op: 'remove', serials: ['C3'] },
      ],
    };
    expect(counted.at(-1)).toEqual(selection);
    expect(scope.getState($selectedCount)).toBe(1);
    expect(ticked(scope)).toEqual(['B2']);
    await allSettled(transferClicked, { scope });
    expect(sent).toEqual([{ brandId: 1, selection }]);
    expect(scope.getState(transferResult.$result)).toMatchObject({
      title: 'DEVICES TRANSFERRED',
      message: '1 device now belongs to SunStop.',
    });
  });
});
