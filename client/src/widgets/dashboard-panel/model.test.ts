import { allSettled, createStore, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { countiesRequested, fetchCountiesFx } from '../../entities/county';
import { $selectedSerial, deviceListNeeded, fetchDevicesFx } from '../../entities/device';
import { fakeDevice } from '../../entities/device/lib/fake-device';
import { $countyOverview, fetchCountyOverviewFx } from '../../entities/overview';
import { $user } from '../../entities/session';
import { overviewChangedReceived, socketConnected, subscribeFx, unsubscribeFx } from '../../shared/realtime';
import {
  $countyFilter,
  $countyRows,
  $filteredDevices,
  $isMarketPartner,
  $searchText,
  $selectedCounty,
  $tab,
  areaFocused,
  countyClicked,
  countyCleared,
  deviceCardClicked,
  deviceChosen,
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

function setup(user: Record<string, unknown> = { role: 'distributor', user_type: 'distributor' }) {
  const log: string[] = [];
  const overviewReads: number[] = [];
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
      [
        fetchDevicesFx,
        async () => [
          fakeDevice('A1', { label: 'Beach Front', location_id: 1 }),
          fakeDevice('B2', { label: 'Pool Side', location_id: 2, is_online: false }),
          fakeDevice('C3', { label: 'Pier', location_id: 2, is_pause: true }),
        ],
      ],
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
  return { scope, log, overviewReads };
}

async function loaded(user?: Record<string, unknown>) {
  const s = setup(user);
  await allSettled(deviceListNeeded, { scope: s.scope });
  await allSettled(countiesRequested, { scope: s.scope });
  return s;
}

describe('dashboard panel model', () => {
  it('a tile opens its filter list; the search narrows it, ignoring case and spaces', async () => {
    const { scope } = await loaded();
    await allSettled(filterViewOpened, { scope, params: 'Offline' });
    expect(scope.getState($filteredDevices).map((d) => d.serial)).toEqual(['B2']);
    await allSettled(filterViewOpened, { scope, params: 'Total' });
    await allSettled(searchChanged, { scope, params: 'POOL s' });
    expect(scope.getState($filteredDevices).map((d) => d.serial)).toEqual(['B2']);
    // Opening another view starts with an empty search.
    await allSettled(filterViewOpened, { scope, params: 'Pause' });
    expect(scope.getState($searchText)).toBe('');
    expect(scope.getState($filteredDevices).map((d) => d.serial)).toEqual(['C3']);
    await allSettled(filterViewClosed, { scope });
    expect(scope.getState($filteredDevices)).toEqual([]);
  });

  it('rolls the fleet up by county with names from the outlines', async () => {
    const { scope } = await loaded();
    expect(scope.getState($countyRows).map((r) => [r.name, r.total, r.offline])).toEqual([
      ['Jefferson', 1, 0],
      ['Orleans', 2, 1],
    ]);
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
