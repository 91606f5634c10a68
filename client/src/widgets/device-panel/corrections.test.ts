import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fetchDeviceDetailsFx, fetchDevicesFx } from '../../entities/device';
import { fakeDevice } from '../../entities/device/lib/fake-device';
import { HttpError } from '../../shared/api';
import { deviceChangedReceived, subscribeFx, unsubscribeFx } from '../../shared/realtime';
import { locationSynced, pushHistoryFx } from '../../shared/routing';
import { $notice, $optimistic, deviceActionFx, noticeDisplayed, RESULT_CLOSE_MS, SAVING, toggleShown } from './controls.model';
import { latestPage, pageHours, siteDateTime, siteToday, siteWallMs } from './lib/panel-lib';
import {
  $multiSelected,
  $panelSerial,
  $panelStatus,
  $section,
  fetchPanelDeviceFx,
  fetchSimLogFx,
  multiSelectCardClicked,
  multiSelectToggled,
  panelClosed,
  panelOpened,
  panelSearch,
  sectionSelected,
  type PanelDevice,
} from './model';
import { fetchBatteryFx, fetchMonthUsageFx, fetchPumpLogFx } from './telemetry.model';

const device = (serial: string, fields: Partial<PanelDevice> = {}) =>
  ({ ...fakeDevice(serial), pending_changes: [], timezone_id: 'America/Chicago', ...fields }) as unknown as PanelDevice;
const emptyLog = { total_left_pump_dispensation: 0, total_right_pump_dispensation: 0, dispensingDatas: [], remainDatas: [] };

function setup(options: { missing?: string[] } = {}) {
  const calls: string[] = [];
  const pushed: string[] = [];
  const pumpDates: string[] = [];
  const scope = fork({
    handlers: [
      [
        subscribeFx,
        async (sub: { topic: string; serial?: string }) => (
          calls.push(`+${sub.topic}:${sub.serial}`),
          { ok: true, subscribed: [] }
        ),
      ],
      [unsubscribeFx, async () => undefined],
      [
        fetchPanelDeviceFx,
        async (serial: string) => {
          calls.push(`device:${serial}`);
          if (options.missing?.includes(serial)) throw new HttpError(404, { detail: 'No device with this serial.' });
          return device(serial);
        },
      ],
      [fetchDeviceDetailsFx, async (serial: string) => (calls.push(`details:${serial}`), device(serial))],
      [fetchDevicesFx, async () => []],
      [fetchSimLogFx, async (serial: string) => (calls.push(`simLog:${serial}`), [])],
      [
        fetchPumpLogFx,
        async ({ serial, query }: { serial: string; query: { date: string } }) => (
          calls.push(`pumpLog:${serial}`),
          pumpDates.push(query.date),
          emptyLog
        ),
      ],
      [fetchBatteryFx, async () => []],
      [fetchMonthUsageFx, async () => ({})],
      [
        pushHistoryFx,
        ({ to }: { to: string }) => (
          pushed.push(to),
          { pathname: to.split('?')[0] ?? '/', search: to.includes('?') ? `?${to.split('?')[1]}` : '' }
        ),
      ],
    ],
  });
  return { scope, calls, pushed, pumpDates };
}

describe('panel on the site calendar', () => {
  it('reads dates and times in the site zone, never the browser one', () => {
    // 2026-11-23 04:30 UTC is still the 22nd, 10:30 PM in Chicago.
    const at = Date.parse('2026-11-23T04:30:00Z');
    expect(siteToday(at, 'America/Chicago')).toBe('2026-11-22');
    expect(siteToday(at, 'Asia/Tokyo')).toBe('2026-11-23');
    expect(siteDateTime('2026-11-23T04:30:00Z', 'America/Chicago')).toBe('22 Nov 10:30 PM');
    // A chart drawing in UTC shows the site's wall clock.
    expect(new Date(siteWallMs(at, 'America/Chicago')).toISOString()).toBe('2026-11-22T22:30:00.000Z');
  });

  it('opens DAILY on the window holding the latest data: 12:00-18:00 at 3 PM, not the empty evening', () => {
    const hours = Array.from({ length: 24 }, (_, h) => ({
      date: `2026-11-22T${String(h).padStart(2, '0')}:00:00-06:00`,
      value: h >= 8 && h <= 14 ? 3 : 0,
    }));
    const remain = hours.map((r, h) => ({ date: r.date, value: h <= 15 ? 500 : null }));
    const threePm = Date.parse('2026-11-22T15:10:00-06:00');
    expect(latestPage(hours, remain, threePm)).toBe(2);
    expect(pageHours(hours, 2)).toBe('12:00–18:00');
    expect(pageHours(hours, 3)).toBe('18:00–24:00');
    // A past day with data in the evening opens on its last window; a day in the future on its first.
    expect(
      latestPage(
        hours,
        hours.map((r) => ({ date: r.date, value: 1 })),
        Date.parse('2026-11-23T12:00:00-06:00'),
      ),
    ).toBe(3);
    expect(latestPage(hours, remain, Date.parse('2026-11-21T12:00:00-06:00'))).toBe(0);
  });

  it('asks the pump log for the site today, once the device (and so its zone) is known', async () => {
    const { scope, pumpDates } = setup();
    await allSettled(panelOpened, { scope, params: 'A1' });
    expect(pumpDates).toEqual([siteToday(Date.now(), 'America/Chicago')]);
  });

  it('re-reads the totals when a push says the device checked in (TOTAL DISPENSE moves live)', async () => {
    const { scope, calls } = setup();
    await allSettled(panelOpened, { scope, params: 'A1' });
    calls.length = 0;
    await allSettled(deviceChangedReceived, {
      scope,
      params: { serial: 'A1', patch: { last_seen_at: new Date().toISOString(), volume_remain: 400 }, at: '' },
    });
    expect(calls).toEqual(['pumpLog:A1']);
    // A push for another device, or one changing nothing of the sort, reads nothing.
    calls.length = 0;
    await allSettled(deviceChangedReceived, {
      scope,
      params: { serial: 'B2', patch: { last_seen_at: new Date().toISOString() }, at: '' },
    });
    await allSettled(deviceChangedReceived, { scope, params: { serial: 'A1', patch: { signal_quality: 40 }, at: '' } });
    expect(calls).toEqual([]);
  });
});

describe('a device not found', () => {
  it('shows missing and asks nothing more (no pump log, no subscription)', async () => {
    const { scope, calls } = setup({ missing: ['NOPE'] });
    await allSettled(panelOpened, { scope, params: 'NOPE' });
    expect(scope.getState($panelStatus)).toBe('missing');
    expect(calls).toEqual(['device:NOPE']);
  });
});

describe('control dialog and toggles', () => {
  it('shows loading, then the result, closes about 1 s later; a failed toggle goes back', async () => {
    let fail = false;
    let release: () => void = () => undefined;
    const scope = fork({
      handlers: [
        [
          deviceActionFx,
          () =>
            new Promise<PanelDevice>((resolve, reject) => {
              release = () => (fail ? reject(new Error('boom')) : resolve(device('A1', { is_enabled_maintenance: true })));
            }),
        ],
        [fetchPanelDeviceFx, async (serial: string) => device(serial)],
        [subscribeFx, async () => ({ ok: true, subscribed: [] })],
        [unsubscribeFx, async () => undefined],
        [fetchPumpLogFx, async () => emptyLog],
      ],
    });
    await allSettled(panelOpened, { scope, params: 'A1' });
    const done = allSettled(deviceActionFx, { scope, params: { serial: 'A1', kind: 'maintenance', value: true } });
    await Promise.resolve();
    expect(scope.getState($notice)).toMatchObject({ phase: 'loading', text: SAVING });
    expect(toggleShown(scope.getState($optimistic), 'A1', 'maintenance', false)).toBe(true);
    release();
    await done;
    expect(scope.getState($notice)).toMatchObject({ phase: 'success', text: 'Maintenance activated' });
    // The 1 s count from when the dialog shows the result (the view says so), not from the store's change.
    await new Promise((r) => setTimeout(r, RESULT_CLOSE_MS + 100));
    expect(scope.getState($notice)).toMatchObject({ phase: 'success' });
    await allSettled(noticeDisplayed, { scope, params: scope.getState($notice)!.seq });
    await new Promise((r) => setTimeout(r, RESULT_CLOSE_MS + 100));
    expect(scope.getState($notice)).toBeNull();

    fail = true;
    const failed = allSettled(deviceActionFx, { scope, params: { serial: 'A1', kind: 'vandalism', value: true } });
    await Promise.resolve();
    expect(toggleShown(scope.getState($optimistic), 'A1', 'vandalism', false)).toBe(true);
    release();
    await failed;
    expect(scope.getState($notice)).toMatchObject({ phase: 'danger', text: 'Something went wrong.' });
    expect(toggleShown(scope.getState($optimistic), 'A1', 'vandalism', false)).toBe(false);
  });
});

describe('multi-select for the subscription', () => {
  it('keeps the current device chosen; others come and go', async () => {
    const { scope } = setup();
    await allSettled(panelOpened, { scope, params: 'A1' });
    await allSettled(sectionSelected, { scope, params: 'subscription' });
    await allSettled(multiSelectToggled, { scope });
    expect(scope.getState($multiSelected)).toEqual(['A1']);
    await allSettled(multiSelectCardClicked, { scope, params: 'A2' });
    await allSettled(multiSelectCardClicked, { scope, params: 'A1' });
    expect(scope.getState($multiSelected)).toEqual(['A1', 'A2']);
    await allSettled(multiSelectCardClicked, { scope, params: 'A2' });
    expect(scope.getState($multiSelected)).toEqual(['A1']);
    await allSettled(multiSelectToggled, { scope });
    expect(scope.getState($multiSelected)).toBeNull();
  });
});

describe('the address follows the panel', () => {
  it('writes device and section, and back/forward drive the panel', async () => {
    expect(panelSearch('?x=1', 'A1', 'sim')).toBe('?x=1&device=A1&section=sim');
    expect(panelSearch('?device=A1&section=sim', null, 'dashboard')).toBe('');
    const { scope, pushed } = setup();
    await allSettled(locationSynced, { scope, params: { pathname: '/', search: '' } });
    await allSettled(panelOpened, { scope, params: 'A1' });
    await allSettled(sectionSelected, { scope, params: 'battery' });
    expect(pushed).toEqual(['/?device=A1', '/?device=A1&section=battery']);

    // Back: the section goes back to the dashboard, then the panel closes; forward opens it again.
    await allSettled(locationSynced, { scope, params: { pathname: '/', search: '?device=A1' } });
    expect(scope.getState($section)).toBe('dashboard');
    await allSettled(locationSynced, { scope, params: { pathname: '/', search: '' } });
    expect(scope.getState($panelSerial)).toBeNull();
    await allSettled(locationSynced, { scope, params: { pathname: '/', search: '?device=B2&section=battery' } });
    expect(scope.getState($panelSerial)).toBe('B2');
    expect(scope.getState($section)).toBe('battery');
    // Reading the address back pushed nothing new.
    expect(pushed).toEqual(['/?device=A1', '/?device=A1&section=battery']);
    await allSettled(panelClosed, { scope });
    expect(pushed.at(-1)).toBe('/');
  });
});
