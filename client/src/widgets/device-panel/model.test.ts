import { allSettled, fork, scopeBind } from 'effector';
import { describe, expect, it } from 'vitest';
import { $devices, devicesRequested, fetchDevicesFx } from '../../entities/device';
import { fakeDevice } from '../../entities/device/lib/fake-device';
import { fetchOverviewFx } from '../../entities/overview';
import { flushTimerFx } from '../../features/live-devices';
import {
  smsLogAppendedReceived,
  socketConnected,
  subscribeFx,
  unsubscribeFx,
  deviceChangedReceived,
} from '../../shared/realtime';
import {
  $groupDevices,
  $panelDevice,
  $panelStatus,
  $smsLog,
  fetchGroupFx,
  fetchPanelDeviceFx,
  fetchSimLogFx,
  panelClosed,
  panelDeviceReplaced,
  panelDeviceSelected,
  panelOpened,
  sectionSelected,
  type PanelDevice,
} from './model';
import { fetchBatteryFx, fetchMonthUsageFx, fetchPumpLogFx } from './telemetry.model';

const at = '2026-11-22T10:00:00Z';
const row = (message: string, created_when = at) => ({ direction: 'IN', message, created_when });

/** A scope whose socket and API are recorded instead of sent. */
/** `list`: what GET /api/v1/device answers when read. */
function setup(list: () => ReturnType<typeof fakeDevice>[] = () => []) {
  const log: string[] = [];
  const reads: string[] = [];
  /** The sites whose devices the right column read (devicePage?site=), and whether the whole list was read. */
  const groups: number[] = [];
  let wholeList = 0;
  const scope = fork({
    handlers: [
      [
        subscribeFx,
        async (_s: unknown, sub: { topic: string; serial?: string }) => (
          log.push(`+${sub.topic}:${sub.serial ?? ''}`),
          { ok: true, subscribed: [] }
        ),
      ],
      [
        unsubscribeFx,
        (_s: unknown, sub: { topic: string; serial?: string }) => void log.push(`-${sub.topic}:${sub.serial ?? ''}`),
      ],
      [
        fetchPanelDeviceFx,
        async (serial: string) => (
          reads.push(`device:${serial}`),
          { ...fakeDevice(serial), pending_changes: [], timezone_id: 'America/Chicago' } as unknown as PanelDevice
        ),
      ],
      [fetchSimLogFx, async (serial: string) => (reads.push(`simLog:${serial}`), [row('hello')])],
      [
        fetchPumpLogFx,
        async () => ({ total_left_pump_dispensation: 0, total_right_pump_dispensation: 0, dispensingDatas: [], remainDatas: [] }),
      ],
      [fetchBatteryFx, async () => []],
      [fetchMonthUsageFx, async () => ({})],
      [fetchDevicesFx, async () => (wholeList++, list())],
      [
        fetchGroupFx,
        async (site: number) => (groups.push(site), { site, devices: list().filter((d) => d.location_group === site) }),
      ],
      // live-devices applies the merged pushes at once instead of after its throttle window.
      [flushTimerFx, async () => undefined],
      [fetchOverviewFx, async () => ({})],
    ],
  });
  return { scope, log, reads, groups, wholeList: () => wholeList };
}

describe('device panel model', () => {
  it('subscribes to what it shows and moves the subscriptions with the device and section', async () => {
    const { scope, log, reads } = setup();
    await allSettled(panelOpened, { scope, params: 'A1' });
    expect(log).toEqual(['+device:A1']);
    expect(reads).toEqual(['device:A1']);

    await allSettled(sectionSelected, { scope, params: 'sim' });
    expect(log).toEqual(['+device:A1', '+simLog:A1']);
    expect(reads).toEqual(['device:A1', 'simLog:A1']);

    log.length = 0;
    await allSettled(panelDeviceSelected, { scope, params: 'B2' });
    // The old device's rooms are left while the new one loads, the new ones joined once it is there.
    expect([...log].sort()).toEqual(['+device:B2', '+simLog:B2', '-device:A1', '-simLog:A1']);

    log.length = 0;
    await allSettled(sectionSelected, { scope, params: 'battery' });
    expect(log).toEqual(['-simLog:B2']);

    log.length = 0;
    await allSettled(panelClosed, { scope });
    expect(log).toEqual(['-device:B2']);
  });

  it('applies pushes of the device shown only, and appends SMS rows once', async () => {
    const { scope } = setup();
    await allSettled(panelOpened, { scope, params: 'A1' });
    await allSettled(sectionSelected, { scope, params: 'sim' });
    // A push reaches the panel the way it reaches every view: live-devices patches the device store.
    await allSettled(deviceChangedReceived, { scope, params: { serial: 'A1', patch: { battery_percent: 12 }, at } });
    await allSettled(deviceChangedReceived, { scope, params: { serial: 'Z9', patch: { battery_percent: 99 }, at } });
    expect(scope.getState($panelDevice)?.battery_percent).toBe(12);

    const appended = scopeBind(smsLogAppendedReceived, { scope });
    appended({ serial: 'A1', rows: [row('new', '2026-11-22T11:00:00Z'), row('hello')], at });
    appended({ serial: 'Z9', rows: [row('elsewhere')], at });
    expect(scope.getState($smsLog)?.map((r) => r.message)).toEqual(['new', 'hello']);
  });

  it("reads its site's devices for the right column, not the whole list, and pushes keep them live", async () => {
    const site = [fakeDevice('A1'), fakeDevice('C1', { number: 2 }), fakeDevice('B2')];
    const { scope, groups, wholeList } = setup(() => site);
    await allSettled(panelOpened, { scope, params: 'A1' });
    expect(groups).toEqual([1]);
    expect(wholeList()).toBe(0);
    expect(scope.getState($groupDevices).map((d) => d.serial)).toEqual(['A1', 'C1']);
    await allSettled(deviceChangedReceived, { scope, params: { serial: 'C1', patch: { battery_percent: 7 }, at } });
    expect(scope.getState($groupDevices)[1]).toMatchObject({ serial: 'C1', battery_percent: 7 });
    // Another device of the same site: no second read; of another site: that site's.
    await allSettled(panelDeviceSelected, { scope, params: 'C1' });
    await allSettled(panelDeviceSelected, { scope, params: 'B2' });
    expect(groups).toEqual([1, 2]);
    expect(scope.getState($groupDevices).map((d) => d.serial)).toEqual(['B2']);
    expect(wholeList()).toBe(0);
  });

  it('after a reconnect subscribes again and re-reads the device; a first connect reads nothing', async () => {
    const { scope, log, reads } = setup();
    await allSettled(panelOpened, { scope, params: 'A1' });
    log.length = 0;
    reads.length = 0;
    await allSettled(socketConnected, { scope, params: { reconnect: false } });
    expect(log).toContain('+device:A1');
    expect(reads).toEqual([]);
    await allSettled(socketConnected, { scope, params: { reconnect: true } });
    expect(reads).toEqual(['device:A1']);
  });

  it("shows the device store's device: a push, a write and a list read show the same in the panel and the list", async () => {
    let list = [fakeDevice('A1', { battery_percent: 50 }), fakeDevice('B1')];
    const { scope } = setup(() => list);
    await allSettled(panelOpened, { scope, params: 'A1' });
    // A view behind the panel read the whole list (the panel itself does not: the next test).
    await allSettled(fetchDevicesFx, { scope });
    const listed = () => scope.getState($devices).A1!;
    const shown = () => scope.getState($panelDevice)!;
    /** Every list field the panel shows is the list entry's own value (the same object for objects): no second copy. */
    const sameAsList = () => {
      for (const [field, value] of Object.entries(listed())) expect(shown()[field as keyof PanelDevice], field).toBe(value);
      expect(scope.getState($groupDevices).find((d) => d.serial === 'A1')).toBe(listed());
    };
    sameAsList();
    // The fields only the single answer carries come from the panel's read.
    expect(shown().timezone_id).toBe('America/Chicago');

    await allSettled(deviceChangedReceived, {
      scope,
      params: { serial: 'A1', patch: { battery_percent: 12, label: 'Pier' }, at },
    });
    expect(shown()).toMatchObject({ battery_percent: 12, label: 'Pier' });
    sameAsList();

    // A write's answer (pause) lands in the store: the list shows it too; its pending change stays a detail.
    const change = {
      id: 7,
      kind: 'setting',
      setting: 'is_pause',
      requested_at: at,
      requested_by: 1,
      expected_at: null,
      expires_at: null,
    };
    await allSettled(panelDeviceReplaced, { scope, params: { ...shown(), is_pause: true, pending_changes: [change] } });
    expect(listed().is_pause).toBe(true);
    expect(shown().pending_changes).toEqual([change]);
    expect(listed()).not.toHaveProperty('pending_changes');
    sameAsList();

    // The list read again: its values are the panel's, and the detail fields stay.
    list = [fakeDevice('A1', { label: 'Renamed', battery_percent: 40 }), fakeDevice('B1')];
    await allSettled(devicesRequested, { scope });
    expect(shown()).toMatchObject({
      label: 'Renamed',
      battery_percent: 40,
      timezone_id: 'America/Chicago',
      pending_changes: [change],
    });
    sameAsList();
    expect(scope.getState($panelStatus)).toBe('ready');
  });
});
