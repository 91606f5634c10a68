import { allSettled, createStore, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fakeDevice, pinsOf } from './lib/fake-device';
import { pinStatusOf, pinTypeOf, worstStatus } from './lib/pin-status';
import {
  $devicePins,
  $devices,
  $liveSerials,
  $devicesStatus,
  $selectedDevice,
  applyDevicePatches,
  applyPinPatches,
  deviceAnswered,
  deviceListNeeded,
  deviceOf,
  devicePinClicked,
  devicesCleared,
  devicesPatched,
  devicesRequested,
  fetchDeviceDetailsFx,
  fetchDevicePinsFx,
  fetchDevicesFx,
  normaliseDevices,
  pinsRequested,
  RECENT_SINGLES,
  viewShows,
} from './model';

describe('device store', () => {
  it('keeps the REST snapshot normalised by serial', async () => {
    const scope = fork({ handlers: [[fetchDevicesFx, async () => [fakeDevice('A1'), fakeDevice('B2')]]] });
    await allSettled(fetchDevicesFx, { scope });
    expect(Object.keys(scope.getState($devices))).toEqual(['A1', 'B2']);
    expect(scope.getState($devicesStatus)).toBe('ready');
  });

  it('applies patches to known serials only and leaves the others untouched', async () => {
    const before = normaliseDevices([fakeDevice('A1'), fakeDevice('B2')]);
    const scope = fork({ values: [[$devices, before]] });
    await allSettled(devicesPatched, { scope, params: { A1: { is_pause: true, battery_percent: 12 }, ZZ9: { is_pause: true } } });
    const after = scope.getState($devices);
    expect(after.A1).toMatchObject({ serial: 'A1', is_pause: true, battery_percent: 12, is_online: true });
    expect(after.B2).toBe(before.B2);
    expect(after.ZZ9).toBeUndefined();
  });

  it('returns the same record when no patch matches, so nothing re-renders', () => {
    const devices = normaliseDevices([fakeDevice('A1')]);
    expect(applyDevicePatches(devices, { NOPE: { is_pause: true } })).toBe(devices);
  });

  it('lays changes that arrived during a list or pin read over its answer, which the server may have taken before them', async () => {
    const held: { list?: () => void; pins?: () => void } = {};
    const scope = fork({
      values: [
        [$devices, normaliseDevices([fakeDevice('A1'), fakeDevice('B2')])],
        [$devicePins, pinsOf([fakeDevice('A1'), fakeDevice('B2')])],
      ],
      handlers: [
        // Both answers were taken before the changes below: the old label, not paused.
        [fetchDevicesFx, () => new Promise((resolve) => (held.list = () => resolve([fakeDevice('A1'), fakeDevice('B2')])))],
        [
          fetchDevicePinsFx,
          () => new Promise((resolve) => (held.pins = () => resolve(pinsOf([fakeDevice('A1'), fakeDevice('B2')])))),
        ],
      ],
    });
    // allSettled waits for the scope's effects, the held reads too: the events are launched without waiting.
    const settled: Promise<unknown>[] = [allSettled(fetchDevicesFx, { scope }), allSettled(fetchDevicePinsFx, { scope })];
    // While both reads are on their way: a write's answer renames A1, a push pauses B2.
    settled.push(
      allSettled(deviceAnswered, {
        scope,
        params: { ...fakeDevice('A1'), label: 'Renamed during the read', pending_changes: [] },
      }),
    );
    settled.push(allSettled(devicesPatched, { scope, params: { B2: { is_pause: true } } }));
    held.list!();
    held.pins!();
    await Promise.all(settled);
    expect(scope.getState($devices).A1).toMatchObject({ label: 'Renamed during the read' });
    expect(scope.getState($devices).A1).not.toHaveProperty('pending_changes');
    expect(scope.getState($devices).B2).toMatchObject({ is_pause: true });
    expect(scope.getState($devicePins).get('A1')).toMatchObject({ label: 'Renamed during the read' });
    expect(scope.getState($devicePins).get('B2')).toMatchObject({ is_pause: true });

    // Once no read is on its way the changes are dropped: the next read's answer is the truth again.
    const again = fork({ handlers: [[fetchDevicesFx, async () => [{ ...fakeDevice('A1'), label: 'From the server' }]]] });
    await allSettled(deviceAnswered, {
      scope: again,
      params: { ...fakeDevice('A1'), label: 'Answered before the read started' },
    });
    await allSettled(fetchDevicesFx, { scope: again });
    expect(again.getState($devices).A1).toMatchObject({ label: 'From the server' });
    held.list = undefined;
    const next = allSettled(fetchDevicesFx, { scope });
    held.list!();
    await next;
    // The same scope's next read (answered with the old label) no longer has the earlier changes laid over it.
    expect(scope.getState($devices).A1).toMatchObject({ label: fakeDevice('A1').label });
  });

  it('follows the selected device through patches and forgets everything when cleared', async () => {
    const scope = fork({ values: [[$devices, normaliseDevices([fakeDevice('A1')])]] });
    await allSettled(devicePinClicked, { scope, params: 'A1' });
    await allSettled(devicesPatched, { scope, params: { A1: { label: 'Renamed' } } });
    expect(scope.getState($selectedDevice)?.label).toBe('Renamed');
    await allSettled(devicesCleared, { scope });
    expect(scope.getState($devices)).toEqual({});
    expect(scope.getState($selectedDevice)).toBeNull();
  });
});

describe('pin status', () => {
  it('puts pause before warning before connection', () => {
    expect(pinStatusOf(fakeDevice('A', { is_pause: true, is_warning: true, is_online: false }))).toBe('paused');
    expect(pinStatusOf(fakeDevice('A', { is_warning: true, is_online: false }))).toBe('warning');
    expect(pinStatusOf(fakeDevice('A', { is_online: false, is_registration: true }))).toBe('registering');
    expect(pinStatusOf(fakeDevice('A', { is_online: false }))).toBe('offline');
    expect(pinStatusOf(fakeDevice('A'))).toBe('normal');
    expect(pinTypeOf(fakeDevice('A', { is_warning: true }))).toBe('warning');
  });

  it('names the worst status of a cluster', () => {
    expect(worstStatus({ normal: 900, registering: 0, offline: 1, warning: 3, paused: 0 })).toBe('offline');
    expect(worstStatus({ normal: 900, registering: 2, offline: 0, warning: 0, paused: 5 })).toBe('registering');
    expect(worstStatus({ normal: 0, registering: 0, offline: 0, warning: 0, paused: 0 })).toBe('normal');
  });
});

describe('pin feed and the full list on demand', () => {
  it('draws from the pins; the full list is read only when a view needs it, then refreshed with the pins', async () => {
    const reads: string[] = [];
    const scope = fork({
      handlers: [
        [fetchDevicePinsFx, async () => (reads.push('pins'), pinsOf([fakeDevice('A1'), fakeDevice('B2')]))],
        [fetchDevicesFx, async () => (reads.push('list'), [fakeDevice('A1'), fakeDevice('B2')])],
      ],
    });
    await allSettled(pinsRequested, { scope });
    expect([...scope.getState($devicePins).keys()]).toEqual(['A1', 'B2']);
    // The pins alone ask no device's pushes (they have their own deltas): only what a view reads does.
    expect(scope.getState($liveSerials)).toEqual([]);
    // A write elsewhere: the pins again, not the list nobody has shown.
    await allSettled(devicesRequested, { scope });
    expect(reads).toEqual(['pins', 'pins']);
    await allSettled(deviceListNeeded, { scope });
    await allSettled(deviceListNeeded, { scope });
    expect(reads).toEqual(['pins', 'pins', 'list']);
    expect(scope.getState($liveSerials)).toEqual(['A1', 'B2']);
    await allSettled(devicesRequested, { scope });
    expect(reads.slice(3).sort()).toEqual(['list', 'pins']);
  });

  it('applies the pin fields of a push to the pins, and leaves them alone for other fields', async () => {
    const pins = pinsOf([fakeDevice('A1'), fakeDevice('B2')]);
    const scope = fork({ values: [[$devicePins, pins]] });
    await allSettled(devicesPatched, { scope, params: { A1: { is_pause: true, label: 'Pier' }, B2: { battery_percent: 3 } } });
    expect(scope.getState($devicePins).get('A1')).toMatchObject({ is_pause: true, label: 'Pier', is_online: true });
    expect(scope.getState($devicePins).get('B2')).toBe(pins.get('B2'));
    expect(applyPinPatches(pins, { B2: { battery_percent: 3 } })).toBe(pins);
  });

  it("reads one device's full answer for its card when the list is not loaded", async () => {
    const asked: string[] = [];
    const scope = fork({
      handlers: [
        [fetchDeviceDetailsFx, async (serial: string) => (asked.push(serial), fakeDevice(serial, { address: '1 Beach Rd' }))],
      ],
    });
    await allSettled(devicePinClicked, { scope, params: 'A1' });
    expect(asked).toEqual(['A1']);
    expect(scope.getState($selectedDevice)).toMatchObject({ serial: 'A1', address: '1 Beach Rd' });
  });
});

describe('one device in one place', () => {
  it("a single answer refreshes the device's list entry; its detail fields stay in the detail cache through a list read", async () => {
    let list = [fakeDevice('A1'), fakeDevice('B2')];
    const scope = fork({ handlers: [[fetchDevicesFx, async () => list]] });
    const $shown = deviceOf(createStore<string | null>('A1'));
    await allSettled(deviceListNeeded, { scope });
    await allSettled(deviceAnswered, { scope, params: fakeDevice('A1', { label: 'Pier', timezone_id: 'America/Chicago' }) });
    expect(scope.getState($devices).A1).toMatchObject({ label: 'Pier' });
    expect(scope.getState($devices).A1).not.toHaveProperty('timezone_id');
    expect(scope.getState($shown)).toMatchObject({ label: 'Pier', timezone_id: 'America/Chicago' });

    list = [fakeDevice('A1', { label: 'Renamed' })];
    await allSettled(devicesRequested, { scope });
    expect(scope.getState($shown)).toMatchObject({ label: 'Renamed', timezone_id: 'America/Chicago' });
    await allSettled(devicesCleared, { scope });
    expect(scope.getState($shown)).toBeNull();
  });
});

describe('live serials follow what views show now', () => {
  it('a view replaces what it showed; single devices asked about are kept to the latest few; sign-out empties it', async () => {
    const scope = fork();
    await allSettled(viewShows, { scope, params: { view: 'list', serials: ['L1', 'L2'] } });
    await allSettled(viewShows, { scope, params: { view: 'list', serials: ['L3'] } });
    expect(scope.getState($liveSerials)).toEqual(['L3']);
    for (let n = 0; n < RECENT_SINGLES + 10; n++) await allSettled(devicePinClicked, { scope, params: `P${n}` });
    const live = scope.getState($liveSerials);
    expect(live).toHaveLength(1 + RECENT_SINGLES);
    expect(live).not.toContain('P9');
    expect(live).toContain('P10');
    // Asked again, an older one moves to the latest and stays.
    await allSettled(devicePinClicked, { scope, params: 'P10' });
    await allSettled(devicePinClicked, { scope, params: 'P99' });
    expect(scope.getState($liveSerials)).toContain('P10');
    expect(scope.getState($liveSerials)).not.toContain('P11');
    await allSettled(devicesCleared, { scope });
    expect(scope.getState($liveSerials)).toEqual([]);
  });
});
