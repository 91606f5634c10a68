import { allSettled, fork, scopeBind } from 'effector';
import { describe, expect, it } from 'vitest';
import {
  $devicePins,
  $liveSerials,
  $devices,
  $devicesStatus,
  deviceAnswered,
  fetchDevicePinsFx,
  fetchDevicesFx,
  normaliseDevices,
  viewShows,
} from '../../entities/device';
import { fakeDevice, pinsOf } from '../../entities/device/lib/fake-device';
import { $overview, fetchOverviewFx } from '../../entities/overview';
import {
  $connected,
  deviceChangedReceived,
  overviewChangedReceived,
  pinsChangedReceived,
  socketConnected,
  subscribeFx,
  unsubscribeFx,
} from '../../shared/realtime';
import { flushTimerFx, SUBSCRIBE_CHUNK } from './model';

const at = '2026-11-22T10:00:00Z';

describe('live device updates', () => {
  it('merges patches that come fast into one store update, latest value per field', async () => {
    let release!: () => void;
    const scope = fork({
      values: [[$devices, normaliseDevices([fakeDevice('A1'), fakeDevice('B2')])]],
      handlers: [[flushTimerFx, () => new Promise<void>((resolve) => (release = resolve))]],
    });
    const received = scopeBind(deviceChangedReceived, { scope });
    const before = scope.getState($devices);

    received({ serial: 'A1', patch: { battery_percent: 50 }, at });
    received({ serial: 'A1', patch: { battery_percent: 40, is_online: false }, at });
    received({ serial: 'B2', patch: { is_pause: true }, at });
    received({ serial: 'A1', patch: { battery_percent: 30 }, at });
    // Nothing applied until the timer ends.
    expect(scope.getState($devices)).toBe(before);

    release();
    await allSettled(scope);
    const after = scope.getState($devices);
    expect(after).not.toBe(before);
    expect(after.A1).toMatchObject({ battery_percent: 30, is_online: false });
    expect(after.B2).toMatchObject({ is_pause: true });
  });

  it('a device answered over REST while a patch waits is not put back by that older patch', async () => {
    let release!: () => void;
    const scope = fork({
      values: [[$devices, normaliseDevices([fakeDevice('A1'), fakeDevice('B2')])]],
      handlers: [[flushTimerFx, () => new Promise<void>((resolve) => (release = resolve))]],
    });
    const received = scopeBind(deviceChangedReceived, { scope });
    // Pushed before the write: the device still paused; then the write's answer says it runs again.
    received({ serial: 'A1', patch: { is_pause: true }, at });
    received({ serial: 'B2', patch: { battery_percent: 12 }, at });
    scopeBind(deviceAnswered, { scope })({ ...fakeDevice('A1'), is_pause: false } as never);
    release();
    await allSettled(scope);
    expect(scope.getState($devices).A1).toMatchObject({ is_pause: false });
    // Other devices' patches still land.
    expect(scope.getState($devices).B2).toMatchObject({ battery_percent: 12 });
  });

  it('lets go of the devices no view shows any more: a list moved to other rows, a view closed', async () => {
    const calls: { kind: string; serials: string[] }[] = [];
    const scope = fork({
      handlers: [
        [
          subscribeFx,
          async (_socket: unknown, subscription: { topic: string; serials?: string[] }) => {
            if (subscription.topic === 'deviceCards') calls.push({ kind: 'subscribe', serials: subscription.serials! });
            return { ok: true, subscribed: [] };
          },
        ],
        [
          unsubscribeFx,
          (_socket: unknown, subscription: { topic: string; serials: string[] }) => {
            calls.push({ kind: 'unsubscribe', serials: subscription.serials });
          },
        ],
        [fetchDevicePinsFx, async () => new Map()],
        [fetchOverviewFx, async () => ({})],
      ],
    });
    await allSettled(socketConnected, { scope, params: { reconnect: false } });
    await allSettled(viewShows, { scope, params: { view: 'list', serials: ['A1', 'A2'] } });
    await allSettled(viewShows, { scope, params: { view: 'panel', serials: ['A2', 'P1'] } });
    // The list's next filter: A1 goes, A2 stays (the panel shows it too), B1 comes.
    await allSettled(viewShows, { scope, params: { view: 'list', serials: ['B1'] } });
    await allSettled(viewShows, { scope, params: { view: 'panel', serials: [] } });
    expect(calls).toEqual([
      { kind: 'subscribe', serials: ['A1', 'A2'] },
      { kind: 'subscribe', serials: ['P1'] },
      { kind: 'subscribe', serials: ['B1'] },
      { kind: 'unsubscribe', serials: ['A1'] },
      { kind: 'unsubscribe', serials: ['A2', 'P1'] },
    ]);
    expect(scope.getState($liveSerials)).toEqual(['B1']);
  });

  it('subscribes the cards of what views show (not every pin) in chunks, the overview and the pins on connect; re-fetches after a reconnect', async () => {
    const serials = Array.from({ length: SUBSCRIBE_CHUNK + 20 }, (_, i) => `S${i}`);
    const subscriptions: unknown[] = [];
    let fetches = 0;
    let pinFetches = 0;
    const scope = fork({
      // The map holds pins of more devices than any view shows; the full list was read by a view (below), so a
      // reconnect re-reads it too.
      values: [
        [$devicePins, pinsOf([...serials, 'ONLY-A-PIN'].map((serial) => fakeDevice(serial)))],
        [$devicesStatus, 'ready'],
      ],
      handlers: [
        [
          subscribeFx,
          // An attached effect's handler gets its source (the socket) first.
          async (_socket: unknown, subscription: unknown) => {
            subscriptions.push(subscription);
            return { ok: true, subscribed: [] };
          },
        ],
        [fetchDevicesFx, async () => (fetches++, [])],
        [fetchDevicePinsFx, async () => (pinFetches++, new Map())],
        [fetchOverviewFx, async () => ({})],
      ],
    });
    await allSettled(viewShows, { scope, params: { view: 'a list', serials } });
    await allSettled(socketConnected, { scope, params: { reconnect: false } });
    expect(scope.getState($connected)).toBe(true);
    const cards = subscriptions.filter((s) => (s as { topic: string }).topic === 'deviceCards') as { serials: string[] }[];
    expect(cards.map((s) => s.serials.length)).toEqual([SUBSCRIBE_CHUNK, 20]);
    expect(cards.flatMap((s) => s.serials)).not.toContain('ONLY-A-PIN');
    expect(subscriptions).toContainEqual({ topic: 'overview' });
    expect(subscriptions).toContainEqual({ topic: 'pins' });
    expect(fetches + pinFetches).toBe(0);

    await allSettled(socketConnected, { scope, params: { reconnect: true } });
    expect(pinFetches).toBe(1);
    expect(fetches).toBe(1);
  });

  it('patches the overall overview with overall pushes only: a county push (location set) leaves it alone', async () => {
    const overall = { total_devices: 10, pause_devices: 1, location: null };
    const scope = fork({ values: [[$overview, overall]] });
    await allSettled(overviewChangedReceived, { scope, params: { pause_devices: 4, location: 12 } });
    expect(scope.getState($overview)).toEqual(overall);
    await allSettled(overviewChangedReceived, { scope, params: { pause_devices: 2, location: null } });
    expect(scope.getState($overview)).toEqual({ ...overall, pause_devices: 2 });
  });

  it('applies pin deltas of a window at once, the last message of a serial winning, without reading the feed again', async () => {
    let release!: () => void;
    let pinFetches = 0;
    const scope = fork({
      values: [[$devicePins, pinsOf([fakeDevice('A1'), fakeDevice('B2'), fakeDevice('C3')])]],
      handlers: [
        [flushTimerFx, () => new Promise<void>((resolve) => (release = resolve))],
        [fetchDevicePinsFx, async () => (pinFetches++, new Map())],
      ],
    });
    const received = scopeBind(pinsChangedReceived, { scope });
    const before = scope.getState($devicePins);
    // A1 paused (bit 1), a new D4, B2 gone, then C3 gone and back.
    received({ upserts: [['A1', 30, -90.26, 1, 'A1', 1, 1, null]], removed: [], at });
    received({ upserts: [['D4', 30.1, -90.2, 4, 'New one', 1, 4, null]], removed: ['B2', 'C3'], at });
    received({ upserts: [['C3', 30, -90.26, 4, 'C3 again', 1, 3, null]], removed: [], at });
    expect(scope.getState($devicePins)).toBe(before);
    release();
    await allSettled(scope);
    const pins = scope.getState($devicePins);
    expect([...pins.keys()].sort()).toEqual(['A1', 'C3', 'D4']);
    expect(pins.get('A1')).toMatchObject({ is_pause: true });
    expect(pins.get('C3')).toMatchObject({ label: 'C3 again' });
    expect(pins.get('D4')).toMatchObject({ label: 'New one', location: { lat: 30.1, lng: -90.2 } });
    expect(pinFetches).toBe(0);
  });
});
