import { allSettled, fork, scopeBind } from 'effector';
import { describe, expect, it } from 'vitest';
import { fetchDevicesFx } from '../../entities/device';
import { fakeDevice } from '../../entities/device/lib/fake-device';
import { fetchOverviewFx } from '../../entities/overview';
import { smsLogAppendedReceived, socketConnected, subscribeFx, unsubscribeFx, deviceChangedReceived } from '../../shared/realtime';
import { $panelDevice, $smsLog, fetchPanelDeviceFx, fetchSimLogFx, panelClosed, panelDeviceSelected, panelOpened, sectionSelected, type PanelDevice } from './model';
import { fetchBatteryFx, fetchMonthUsageFx, fetchPumpLogFx } from './telemetry.model';

const at = '2026-11-22T10:00:00Z';
const row = (message: string, created_when = at) => ({ direction: 'IN', message, created_when });

/** A scope whose socket and API are recorded instead of sent. */
function setup() {
  const log: string[] = [];
  const reads: string[] = [];
  const scope = fork({
    handlers: [
      [subscribeFx, async (_s: unknown, sub: { topic: string; serial?: string }) => (log.push(`+${sub.topic}:${sub.serial ?? ''}`), { ok: true, subscribed: [] })],
      [unsubscribeFx, (_s: unknown, sub: { topic: string; serial?: string }) => void log.push(`-${sub.topic}:${sub.serial ?? ''}`)],
      [fetchPanelDeviceFx, async (serial: string) => (reads.push(`device:${serial}`), { ...fakeDevice(serial), pending_changes: [], timezone_id: 'America/Chicago' } as unknown as PanelDevice)],
      [fetchSimLogFx, async (serial: string) => (reads.push(`simLog:${serial}`), [row('hello')])],
      [fetchPumpLogFx, async () => ({ total_left_pump_dispensation: 0, total_right_pump_dispensation: 0, dispensingDatas: [], remainDatas: [] })],
      [fetchBatteryFx, async () => []],
      [fetchMonthUsageFx, async () => ({})],
      [fetchDevicesFx, async () => []],
      [fetchOverviewFx, async () => ({})],
    ],
  });
  return { scope, log, reads };
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
    const changed = scopeBind(deviceChangedReceived, { scope });
    changed({ serial: 'A1', patch: { battery_percent: 12 }, at });
    changed({ serial: 'Z9', patch: { battery_percent: 99 }, at });
    expect(scope.getState($panelDevice)?.battery_percent).toBe(12);

    const appended = scopeBind(smsLogAppendedReceived, { scope });
    appended({ serial: 'A1', rows: [row('new', '2026-11-22T11:00:00Z'), row('hello')], at });
    appended({ serial: 'Z9', rows: [row('elsewhere')], at });
    expect(scope.getState($smsLog)?.map((r) => r.message)).toEqual(['new', 'hello']);
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
});
