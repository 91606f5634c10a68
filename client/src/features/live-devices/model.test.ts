import { allSettled, fork, scopeBind } from 'effector';
import { describe, expect, it } from 'vitest';
import {
  $devicePins,
  $devices,
  $devicesStatus,
  deviceAnswered,
  fetchDevicePinsFx,
  fetchDevicesFx,
  normaliseDevices,
} from '../../entities/device';
import { fakeDevice, pinsOf } from '../../entities/device/lib/fake-device';
import { $overview, fetchOverviewFx } from '../../entities/overview';
import { $connected, deviceChangedReceived, overviewChangedReceived, socketConnected, subscribeFx } from '../../shared/realtime';
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

  it('subscribes every loaded serial in chunks and the overview on connect; re-fetches after a reconnect', async () => {
    const serials = Array.from({ length: SUBSCRIBE_CHUNK + 20 }, (_, i) => `S${i}`);
    const subscriptions: unknown[] = [];
    let fetches = 0;
    let pinFetches = 0;
    const scope = fork({
      // The map's pins decide what is subscribed; the full list was read by a view, so a reconnect re-reads it too.
      values: [
        [$devicePins, pinsOf(serials.map((serial) => fakeDevice(serial)))],
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
        [fetchDevicePinsFx, async () => (pinFetches++, [])],
        [fetchOverviewFx, async () => ({})],
      ],
    });
    await allSettled(socketConnected, { scope, params: { reconnect: false } });
    expect(scope.getState($connected)).toBe(true);
    const cards = subscriptions.filter((s) => (s as { topic: string }).topic === 'deviceCards') as { serials: string[] }[];
    expect(cards.map((s) => s.serials.length)).toEqual([SUBSCRIBE_CHUNK, 20]);
    expect(subscriptions).toContainEqual({ topic: 'overview' });
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
});
