import { telemetryApi } from '@fleet/shared';
import type { FilterDateType, FilterDeviceType } from '@fleet/shared';
import { combine, createEvent, createStore, sample } from 'effector';
import { call, createApiFx } from '../../shared/api';
import { deviceChangedReceived } from '../../shared/realtime';
import { siteMonth, siteToday } from './lib/panel-lib';
import { $panelDevice, $panelSerial, $section, panelClosed, panelDeviceSelected, panelOpened, valueAtLoad } from './model';

/**
 * What the panel's sections read once when shown (not pushed: history does not change under the eye):
 * dispensing analytics (getPumpLog), the battery year (batteryLog) and SIM data usage (monthDataUsage,
 * dataUsage). Each read is for the device shown; an answer for a device no longer shown is dropped.
 */
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'failed';
/** `date` '' is the site's today (resolved against the device's zone when read, never the browser's). */
export type AnalyticsQuery = { pump: 1 | 2; dateType: FilterDateType; date: string; area: FilterDeviceType };

export const analyticsDefaults = (): AnalyticsQuery => ({ pump: 1, dateType: 'DAILY', date: '', area: 'SINGLE' });

/**
 * The shown device's site time zone, once the device is loaded ('serial|zone', so a push that changes
 * nothing else does not re-read): the panel's reads wait for it, as their dates are the site's.
 */
const $siteKey = $panelDevice.map((d) => (d ? `${d.serial}|${d.timezone_id ?? ''}` : null));
const $siteZone = $panelDevice.map((d) => (d ? (d.timezone_id ?? null) : null));
/** The date a query reads: the one picked, or the site's today. */
export const resolvedDate = (query: AnalyticsQuery, zone: string | null, now = Date.now()) => query.date || siteToday(now, zone);

export const analyticsQueryChanged = createEvent<Partial<AnalyticsQuery>>();
/** The 'Reset filter' link: back to today, daily, this device. */
export const analyticsReset = createEvent();
export const $analyticsQuery = createStore<AnalyticsQuery>(analyticsDefaults());
$analyticsQuery
  .on(analyticsQueryChanged, (query, change) => ({ ...query, ...change }))
  .on(analyticsReset, (query) => ({ ...analyticsDefaults(), pump: query.pump }))
  .reset(panelOpened, panelClosed);

export const fetchPumpLogFx = createApiFx(({ serial, query }: { serial: string; query: AnalyticsQuery }) =>
  call(telemetryApi.getPumpLog, {
    body: {
      filterDateType: query.dateType,
      pumpNumber: query.pump,
      todayDate: query.date,
      endDate: query.date,
      filterDeviceType: query.area,
      serial,
    },
  }),
);
export const fetchBatteryFx = createApiFx((serial: string) =>
  call(telemetryApi.batteryLog, {
    body: { filterDateType: 'YEARLY', pumpNumber: 1, filterDeviceType: 'SINGLE', serial },
  }),
);
export const fetchMonthUsageFx = createApiFx(({ serial, month }: { serial: string; month: string }) =>
  call(telemetryApi.monthDataUsage, { params: { serial, date: month } }),
);
export const fetchDayUsageFx = createApiFx(({ serial, date }: { serial: string; date: string }) =>
  call(telemetryApi.dataUsage, { params: { serial, date } }),
);

export const usageMonthChanged = createEvent<string>();
export const usageDaySelected = createEvent<string | null>();
/** '' is the site's current month. */
export const $usageMonth = createStore('');
export const $usageDay = createStore<string | null>(null);
$usageMonth.on(usageMonthChanged, (_, month) => month).reset(panelOpened, panelClosed);
$usageDay.on(usageDaySelected, (_, day) => day).reset(panelOpened, panelClosed, panelDeviceSelected, usageMonthChanged);

/** One read's answer and state, kept only while it belongs to the device shown. */
function loaded<T, P extends { serial: string } | string>(fx: ReturnType<typeof createApiFx<P, T>>) {
  const serialOf = (p: P) => (typeof p === 'string' ? p : p.serial);
  const $data = createStore<T | null>(null);
  const $status = createStore<LoadStatus>('idle');
  const done = sample({
    clock: fx.done,
    source: $panelSerial,
    filter: (serial, { params }) => serial === serialOf(params),
    fn: (_, { result }) => result,
  });
  const failed = sample({ clock: fx.fail, source: $panelSerial, filter: (serial, { params }) => serial === serialOf(params) });
  $data.on(done, (_, data) => data).reset(panelOpened, panelClosed, panelDeviceSelected);
  $status
    .on(fx, () => 'loading')
    .on(done, () => 'ready')
    .on(failed, () => 'failed')
    .reset(panelOpened, panelClosed, panelDeviceSelected);
  return { $data, $status };
}

export const pumpLog = loaded(fetchPumpLogFx);
export const battery = loaded(fetchBatteryFx);
export const monthUsage = loaded(fetchMonthUsageFx);
export const dayUsage = loaded(fetchDayUsageFx);

// A section is shown for a loaded device: its site zone is known (reads before it would use the wrong day).
const $shown = combine($panelSerial, $section, $siteKey, (serial, section, key) => ({
  serial: key !== null && key.startsWith(`${serial}|`) ? serial : null,
  section,
}));
const shown = (section: string) => (s: { serial: string | null; section: string }) => s.serial !== null && s.section === section;
// This model is made when the sections' chunk loads, perhaps with a section already open: read it then too.
const shownAtLoad = valueAtLoad($shown);

// Reads happen when a section is shown, for its device, and when its own inputs change.
sample({
  clock: [$shown, $analyticsQuery, shownAtLoad],
  source: { shown: $shown, query: $analyticsQuery, zone: $siteZone },
  filter: ({ shown: s }) => shown('dashboard')(s),
  fn: ({ shown: s, query, zone }) => ({ serial: s.serial as string, query: { ...query, date: resolvedDate(query, zone) } }),
  target: fetchPumpLogFx,
});
/**
 * TOTAL DISPENSE moves live: a push saying the device checked in (or its fluid level changed) re-reads the
 * analytics when they show a range that reaches the site's today (the past does not change). REMAINING is
 * the pushed volume itself.
 */
sample({
  clock: deviceChangedReceived,
  source: { shown: $shown, query: $analyticsQuery, zone: $siteZone },
  filter: ({ shown: s, query, zone }, { serial, patch }) =>
    shown('dashboard')(s) &&
    s.serial === serial &&
    ('last_seen_at' in patch || 'volume_remain' in patch || 'volume_remain2' in patch) &&
    resolvedDate(query, zone) >= siteToday(Date.now(), zone),
  fn: ({ shown: s, query, zone }) => ({ serial: s.serial as string, query: { ...query, date: resolvedDate(query, zone) } }),
  target: fetchPumpLogFx,
});
sample({ clock: [$shown, shownAtLoad], filter: shown('battery'), fn: (s) => s.serial as string, target: fetchBatteryFx });
sample({
  clock: [$shown, $usageMonth, shownAtLoad],
  source: { shown: $shown, month: $usageMonth, zone: $siteZone },
  filter: ({ shown: s }) => shown('sim')(s),
  fn: ({ shown: s, month, zone }) => ({ serial: s.serial as string, month: month || siteMonth(Date.now(), zone) }),
  target: fetchMonthUsageFx,
});
sample({
  clock: $usageDay,
  source: $panelSerial,
  filter: (serial, day) => serial !== null && day !== null,
  fn: (serial, day) => ({ serial: serial as string, date: day as string }),
  target: fetchDayUsageFx,
});
