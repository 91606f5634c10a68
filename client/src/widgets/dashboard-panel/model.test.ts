import { allSettled, createStore, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { countiesRequested, fetchCountiesFx, fetchRollupFx, type RollupQuery } from '../../entities/county';
import { fetchBrandsFx } from '../../entities/brand';
import { $selectedSerial, fetchDevicesFx, type PageFilter } from '../../entities/device';
import { fakeDevice } from '../../entities/device/lib/fake-device';
import { $countyOverview, fetchCountyOverviewFx } from '../../entities/overview';
import { $user } from '../../entities/session';
import { overviewChangedReceived, socketConnected, subscribeFx, unsubscribeFx } from '../../shared/realtime';
import {
  $countyFilter,
  $batchOptions,
  $countyRows,
  $filteredDevices,
  $filterTotal,
  $isMarketPartner,
  $partnerCountyRows,
  $searchText,
  $selectedCounty,
  $siteRows,
  $tab,
  $visiblePartners,
  areaFocused,
  batchFilterChanged,
  countyClicked,
  countyCleared,
  countyDrilledIn,
  deviceListTabSelected,
  partnerClicked,
  deviceCardClicked,
  deviceChosen,
  filterPages,
  filterViewClosed,
  filterViewOpened,
  searchChanged,
  tabSelected,
} from './model';

/** What the dashboard asked of the page (the page connects these to the map and the device panel). */
const $focusedArea = createStore<unknown>(null).on(areaFocused, (_, bounds) => bounds);
const $chosenDevice = createStore<string | null>(null).on(deviceChosen, (_, serial) => serial);

const outline = (west: number, south: number) =>
  JSON.stringify({
    type: 'FeatureCollection',
    features: [
      {
        properties: { name_2: 'x' },
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [west, south],
              [west + 0.5, south + 0.4],
              [west, south + 0.4],
            ],
          ],
        },
      },
    ],
  });

const SUN = [{ id: 7, company: 'Sun Co' }];
const FLEET = [
  fakeDevice('A1', { label: 'Beach Front', location_id: 1, batchNumber: 'B-2', market_partners: SUN }),
  fakeDevice('B2', { label: 'Pool Side', location_id: 2, is_online: false }),
  fakeDevice('C3', { label: 'Pier', location_id: 2, is_pause: true, batchNumber: 'B-10', market_partners: SUN }),
];

function setup(user: Record<string, unknown> = { role: 'distributor', user_type: 'distributor' }) {
  const log: string[] = [];
  const overviewReads: number[] = [];
  const pageReads: PageFilter[] = [];
  const rollupReads: RollupQuery[] = [];
  const fleetReads: number[] = [];
  const scope = fork({
    values: [[$user, user]],
    handlers: [
      [
        subscribeFx,
        async (_s: unknown, sub: { topic: string; location?: number }) => (
          log.push(`+${sub.topic}:${sub.location ?? ''}`),
          { ok: true, subscribed: [] }
        ),
      ],
      [
        unsubscribeFx,
        (_s: unknown, sub: { topic: string; location?: number }) => void log.push(`-${sub.topic}:${sub.location ?? ''}`),
      ],
      [fetchDevicesFx, async () => (fleetReads.push(1), FLEET)],
      // The server's roll-ups, as far as these tests ask them (county counts, filtered by batch or partner).
      [
        fetchRollupFx,
        async (query: RollupQuery) => {
          rollupReads.push(query);
          const devices = FLEET.filter(
            (d) =>
              (query.batch === undefined || d.batchNumber === query.batch) &&
              (query.partner === undefined || d.market_partners.some((p) => p.company.toLowerCase() === query.partner)),
          );
          const tally = (key: string, name: string, of: typeof devices) => ({
            key,
            name,
            address: of[0]?.address ?? null,
            serial: of[0]?.serial ?? null,
            label: of[0]?.label ?? null,
            total: of.length,
            online: of.filter((d) => d.is_online).length,
            offline: of.filter((d) => !d.is_online).length,
            warning: of.filter((d) => d.is_warning).length,
          });
          const groups = new Map<string, typeof devices>();
          for (const d of devices) {
            const keys =
              query.by === 'county'
                ? [String(d.location_id)]
                : query.by === 'site'
                  ? d.location_id === Number(query.county)
                    ? [String(d.location_group)]
                    : []
                  : query.by === 'batch'
                    ? [d.batchNumber ?? '']
                    : d.market_partners.map((p) => p.company.toLowerCase());
            for (const key of keys.filter(Boolean)) groups.set(key, [...(groups.get(key) ?? []), d]);
          }
          return { rows: [...groups].map(([key, of]) => tally(key, query.by === 'partner' ? key.toUpperCase() : key, of)) };
        },
      ],
      // The server's filtering, as far as these tests ask it.
      [
        filterPages.fetchPageFx,
        async ({ filter }: { filter: PageFilter }) => {
          pageReads.push(filter);
          const items = FLEET.filter(
            (d) =>
              (filter.status !== 'offline' || !d.is_online) &&
              (filter.status !== 'pause' || d.is_pause) &&
              (filter.county === undefined || d.location_id === filter.county) &&
              (!filter.q || `${d.label}${d.serial}`.replace(/\s+/g, '').toLowerCase().includes(filter.q)),
          );
          return { items, nextCursor: null, total: items.length };
        },
      ],
      [filterPages.settleFx, async () => undefined],
      [fetchBrandsFx, async () => []],
      [
        fetchCountiesFx,
        async () => [
          { id: 1, name: 'Jefferson', geoJson: outline(-90.3, 29.7) },
          { id: 2, name: 'Orleans', geoJson: outline(-90.1, 29.9) },
        ],
      ],
      [
        fetchCountyOverviewFx,
        async (location: number) => (
          overviewReads.push(location),
          { location, total_devices: location === 2 ? 2 : 1, pause_devices: 0 }
        ),
      ],
    ],
  });
  return { scope, log, overviewReads, pageReads, rollupReads, fleetReads };
}

async function loaded(user?: Record<string, unknown>) {
  const s = setup(user);
  await allSettled(countiesRequested, { scope: s.scope });
  return s;
}

describe('dashboard panel model', () => {
  it('a tile opens its filter list read from the server; the search narrows it, ignoring case and spaces', async () => {
    const { scope, pageReads } = await loaded();
    await allSettled(filterViewOpened, { scope, params: 'Offline' });
    expect(pageReads.at(-1)).toEqual({ status: 'offline' });
    expect(scope.getState($filterTotal)).toBe(1);
    expect(scope.getState($filteredDevices).map((d) => d.serial)).toEqual(['B2']);
    await allSettled(filterViewOpened, { scope, params: 'Total' });
    await allSettled(searchChanged, { scope, params: 'POOL s' });
    expect(pageReads.at(-1)).toEqual({ q: 'pools' });
    expect(scope.getState($filteredDevices).map((d) => d.serial)).toEqual(['B2']);
    // Opening another view starts with an empty search.
    await allSettled(filterViewOpened, { scope, params: 'Pause' });
    expect(scope.getState($searchText)).toBe('');
    expect(scope.getState($filteredDevices).map((d) => d.serial)).toEqual(['C3']);
    await allSettled(filterViewClosed, { scope });
    expect(scope.getState($filteredDevices)).toEqual([]);
  });

  it('reads the COUNTY cards from the server while they show, never the whole device list', async () => {
    const { scope, rollupReads, fleetReads } = await loaded();
    expect(rollupReads).toEqual([]);
    await allSettled(tabSelected, { scope, params: 'deviceList' });
    expect(rollupReads).toEqual([{ by: 'county' }, { by: 'batch' }]);
    expect(scope.getState($countyRows).map((r) => [r.name, r.total, r.offline])).toEqual([
      ['Jefferson', 1, 0],
      ['Orleans', 2, 1],
    ]);
    expect(scope.getState($batchOptions)).toEqual(['B-2', 'B-10']);

    // The Batch filter asks for that batch's counts.
    rollupReads.length = 0;
    await allSettled(batchFilterChanged, { scope, params: 'B-10' });
    expect(rollupReads).toEqual([{ by: 'county', batch: 'B-10' }]);
    expect(scope.getState($countyRows).map((r) => [r.name, r.total])).toEqual([['Orleans', 1]]);

    // A pushed change of the counts reads the cards shown again; one of other figures (volumes) does not.
    rollupReads.length = 0;
    await allSettled(overviewChangedReceived, { scope, params: { location: null, totalSunscreenUsed: 12 } as never });
    expect(rollupReads).toEqual([]);
    await allSettled(overviewChangedReceived, { scope, params: { location: null, total_devices: 3 } as never });
    expect(rollupReads).toEqual([{ by: 'county', batch: 'B-10' }, { by: 'batch' }]);

    // The drill-down: the county's sites, with the batch chosen.
    rollupReads.length = 0;
    await allSettled(countyDrilledIn, { scope, params: 2 });
    expect(rollupReads).toEqual([{ by: 'site', county: 2, batch: 'B-10' }]);
    expect(scope.getState($siteRows).map((r) => [r.id, r.serial, r.total])).toEqual([[3, 'C3', 1]]);

    // Back on OVERVIEW nothing is read, even on a push.
    rollupReads.length = 0;
    await allSettled(tabSelected, { scope, params: 'overview' });
    await allSettled(overviewChangedReceived, { scope, params: { location: null, total_devices: 4 } as never });
    expect(rollupReads).toEqual([]);
    expect(fleetReads).toEqual([]);
  });

  it('reads the Market Partner companies and a company’s counties from the server', async () => {
    const { scope, rollupReads, fleetReads } = await loaded();
    await allSettled(tabSelected, { scope, params: 'deviceList' });
    rollupReads.length = 0;
    await allSettled(deviceListTabSelected, { scope, params: 'partner' });
    expect(rollupReads).toEqual([{ by: 'partner' }]);
    expect(scope.getState($visiblePartners)).toEqual([{ key: 'sun co', company: 'SUN CO', deviceCount: 2 }]);
    await allSettled(partnerClicked, { scope, params: 'sun co' });
    expect(rollupReads).toEqual([{ by: 'partner' }, { by: 'county', partner: 'sun co' }]);
    expect(scope.getState($partnerCountyRows).map((r) => [r.name, r.total])).toEqual([
      ['Jefferson', 1],
      ['Orleans', 1],
    ]);
    expect(fleetReads).toEqual([]);
  });

  it('selecting a county reads its overview once, subscribes to its pushes and zooms to its outline', async () => {
    const { scope, log, overviewReads } = await loaded();
    await allSettled(countyClicked, { scope, params: 2 });
    expect(scope.getState($selectedCounty)).toBe(2);
    expect(overviewReads).toEqual([2]);
    expect(log).toEqual(['+overview:2']);
    expect(scope.getState($focusedArea)).toEqual([
      [-90.1, 29.9],
      [-89.6, 30.299999999999997],
    ]);
    expect(scope.getState($countyOverview)).toMatchObject({ total_devices: 2 });

    // A push for this county patches it; one for another county or for the overall view does not.
    await allSettled(overviewChangedReceived, { scope, params: { location: 2, pause_devices: 5 } as never });
    await allSettled(overviewChangedReceived, { scope, params: { location: 1, pause_devices: 9 } as never });
    await allSettled(overviewChangedReceived, { scope, params: { location: null, pause_devices: 7 } as never });
    expect(scope.getState($countyOverview)).toMatchObject({ total_devices: 2, pause_devices: 5 });

    // A filter list opened in the county view starts on that county.
    await allSettled(filterViewOpened, { scope, params: 'Total' });
    expect(scope.getState($countyFilter)).toBe(2);
    expect(scope.getState($filteredDevices).map((d) => d.serial)).toEqual(['B2', 'C3']);

    // Another county moves the subscription; back to overall drops it.
    log.length = 0;
    await allSettled(countyClicked, { scope, params: 1 });
    await allSettled(countyCleared, { scope });
    expect(log).toEqual(['-overview:2', '+overview:1', '-overview:1']);
    expect(overviewReads).toEqual([2, 1]);
  });

  it('after a reconnect it subscribes to the county again and re-reads its overview', async () => {
    const { scope, log, overviewReads } = await loaded();
    await allSettled(countyClicked, { scope, params: 1 });
    log.length = 0;
    await allSettled(socketConnected, { scope, params: { reconnect: true } });
    // The county's topic (one with a location): the whole fleet's overview is live-devices' to renew, and
    // its model is in this scope too when another file has loaded it (the client tests share modules).
    expect(log.filter((entry) => /^[+-]overview:\d/.test(entry))).toEqual(['+overview:1']);
    expect(overviewReads).toEqual([1, 1]);
  });

  it('a device card asks for the device panel and selects its pin', async () => {
    const { scope } = await loaded();
    await allSettled(deviceCardClicked, { scope, params: 'B2' });
    expect(scope.getState($chosenDevice)).toBe('B2');
    expect(scope.getState($selectedSerial)).toBe('B2');
  });

  it('market-partner users never land on the SUBSCRIPTIONS tab', async () => {
    const { scope } = await loaded({ role: 'client', user_type: 'market-partner' });
    expect(scope.getState($isMarketPartner)).toBe(true);
    await allSettled(tabSelected, { scope, params: 'deviceList' });
    await allSettled(tabSelected, { scope, params: 'subscriptions' });
    expect(scope.getState($tab)).toBe('deviceList');
    // Chosen before the role was known, the model falls back when the role arrives.
    const other = setup({ role: 'distributor', user_type: 'distributor' });
    await allSettled(tabSelected, { scope: other.scope, params: 'subscriptions' });
    await allSettled($user, { scope: other.scope, params: { role: 'client', user_type: 'market-partner' } as never });
    expect(other.scope.getState($tab)).toBe('overview');
  });
});
