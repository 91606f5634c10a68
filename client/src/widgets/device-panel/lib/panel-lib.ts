import {
  cutText,
  LABEL_CUT,
  localDateOf,
  siteTimeZone,
  toZonedIso,
  warningText,
  type PendingFlags,
  type WarningCode,
} from '@fleet/shared';

/**
 * Pure rules of the device management panel (spec section 2 and 9), kept apart from the components so
 * they are tested without a browser.
 */
export type PanelSection = 'dashboard' | 'management' | 'subscription' | 'sim' | 'battery';

export type MenuItem = {
  key: PanelSection | 'showcase' | 'schedule' | 'audience';
  label: string;
  disabled?: boolean;
  operatorsOnly?: boolean;
};

/**
 * The side menu, in the spec's order; Content Showcase, Content Schedule and Audience Rating are disabled.
 * `operatorsOnly`: greyed for clients (spec section 6: Device Management, Device Subscription, SIM
 * Management and Battery Management); distributors and market partners open them.
 */
export const PANEL_MENU: readonly MenuItem[] = [
  { key: 'dashboard', label: 'Device Dashboard' },
  { key: 'showcase', label: 'Content Showcase', disabled: true },
  { key: 'schedule', label: 'Content Schedule', disabled: true },
  { key: 'management', label: 'Device Management', operatorsOnly: true },
  { key: 'subscription', label: 'Device Subscription', operatorsOnly: true },
  { key: 'sim', label: 'SIM Management', operatorsOnly: true },
  { key: 'audience', label: 'Audience Rating', disabled: true },
  { key: 'battery', label: 'Battery Management', operatorsOnly: true },
];

/** Which warnings put a badge on which menu item (spec section 2). */
const BADGES: Partial<Record<PanelSection, readonly WarningCode[]>> = {
  dashboard: ['PUMP_SENSOR', 'LEFT_PUMP_VOLUME', 'RIGHT_PUMP_VOLUME'],
  management: ['FAILED_REQUEST'],
  battery: ['BATTERY'],
};

export function menuBadge(section: MenuItem['key'], warnings: readonly string[]): boolean {
  return menuBadgeWarnings(section, warnings).length > 0;
}
/** The warnings behind a menu badge, in words (what the badge says to a screen reader and on hover). */
export function menuBadgeWarnings(section: MenuItem['key'], warnings: readonly string[]): string[] {
  const codes = BADGES[section as PanelSection] ?? [];
  return codes.filter((code) => warnings.includes(code)).map(warningText);
}

/** Site/event name in the panel: 12 characters plus '...' when longer than 15 (spec section 9). */
export const panelSiteName = (name: string) => cutText(name, ...LABEL_CUT.panelSite);
/** A name on a device card: 20 characters plus '...' beyond (spec section 9). */
export const cardName = (name: string) => cutText(name, ...LABEL_CUT.deviceCard);

/** Device number on its card: two digits ('07'); a device without a number shows '--'. */
export const twoDigits = (n: number | null | undefined) => (n == null ? '--' : String(n).padStart(2, '0'));

/**
 * The device clock in the site's time zone, like '5 Jan 2024 3:04 PM' (spec section 2). An unknown or
 * missing zone falls back to UTC rather than to the viewer's own clock.
 */
export function formatDeviceClock(ms: number, timeZone: string | null | undefined): string {
  const zone = timeZone && isZone(timeZone) ? timeZone : 'UTC';
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hour12: true,
    })
      .formatToParts(ms)
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  return `${parts.day} ${parts.month} ${parts.year} ${parts.hour}:${parts.minute} ${(parts.dayPeriod ?? '').toUpperCase()}`;
}

function isZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Pending indicators of the control panel (spec section 2): ACTIVATION, REBOOT (other settings), RENTAL. */
export function pendingIndicators(flags: PendingFlags | null | undefined): string[] {
  if (!flags) return [];
  return [
    flags.activation_changed ? 'ACTIVATION' : null,
    flags.others ? 'REBOOT' : null,
    flags.rental_changed ? 'RENTAL' : null,
  ].filter((x): x is string => x !== null);
}

/** 'Update after {time}' (spec section 4), in the site's time zone; null when no wake-up is known. */
export function updateAfterText(nextWakeup: string | null | undefined, timeZone: string | null | undefined): string | null {
  if (!nextWakeup) return null;
  const ms = Date.parse(nextWakeup);
  return Number.isFinite(ms) ? `Update after ${formatDeviceClock(ms, timeZone)}` : null;
}

/** A pending setting's name as a person reads it. */
export const SETTING_NAMES: Record<string, string> = {
  active: 'Activation',
  is_enabled_maintenance: 'Maintenance',
  is_enabled_vandalism: 'Anti vandalism',
  pause: 'Pause',
  rental: 'Rental plan',
  pump_setting: 'Pump setup',
  registration_timer: 'Registration setup',
  reset_ml_1: 'Left pump reset',
  reset_ml_2: 'Right pump reset',
};
export const settingName = (setting: string) => SETTING_NAMES[setting] ?? setting.replace(/_/g, ' ');

/** Area selector labels (spec: Single, Address, Location, All) and the filter each sends. */
export const AREAS = [
  { value: 'SINGLE', label: 'Single' },
  { value: 'ADDRESS', label: 'Address' },
  { value: 'DISTRICT', label: 'Location' },
  { value: 'ALL', label: 'All' },
] as const;

/** DAILY analytics page through the day 6 hours at a time (spec section 2). */
export const HOURS_PER_PAGE = 6;
export function pageOf<T>(rows: readonly T[], page: number, size = HOURS_PER_PAGE): T[] {
  return rows.slice(page * size, page * size + size);
}
export const pageCount = (rows: number, size = HOURS_PER_PAGE) => Math.max(1, Math.ceil(rows / size));

/**
 * The site's calendar (one time zone per screen): the panel reads every date and time in the zone of the
 * device's site, whatever the viewer's browser says. A missing or unknown zone is UTC, as on the server.
 */
export const siteToday = (ms: number, timeZone: string | null | undefined) => localDateOf(ms, siteTimeZone(timeZone));
/** The site's month 'YYYY-MM' at an instant. */
export const siteMonth = (ms: number, timeZone: string | null | undefined) => siteToday(ms, timeZone).slice(0, 7);
/** An instant as the site's wall clock, like '5 Jan 3:04 PM' (a date in the current year of the panel). */
export function siteDateTime(value: string | number, timeZone: string | null | undefined): string {
  const ms = typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) return '';
  const full = formatDeviceClock(ms, timeZone); // '5 Jan 2024 3:04 PM'
  return full.replace(/ \d{4} /, ' ');
}
/**
 * An instant moved so that a chart drawing in UTC shows the site's wall clock (ApexCharts draws datetime
 * axes either in UTC or in the browser's zone; neither is the site's).
 */
export function siteWallMs(ms: number, timeZone: string | null | undefined): number {
  const iso = toZonedIso(ms, siteTimeZone(timeZone)); // 2026-03-08T03:00:00-05:00
  return Date.parse(`${iso.slice(0, 19)}Z`);
}

type Point = { date: string; value: number | null };
/**
 * The DAILY page that holds the latest data: the last hour that has started (by the site's clock, the
 * labels carry the site offset) and has something in it (a dispense or a level reading); else the last
 * hour that has started; a day wholly in the future opens on its first page. Today at 3 PM site time this
 * is the 12:00-18:00 window, not the empty evening.
 */
export function latestPage(dispensing: readonly Point[], remain: readonly Point[], now: number, size = HOURS_PER_PAGE): number {
  let started = -1;
  let withData = -1;
  dispensing.forEach((row, i) => {
    const start = Date.parse(row.date);
    if (!(start <= now)) return;
    started = i;
    if ((row.value ?? 0) > 0 || remain[i]?.value != null) withData = i;
  });
  const at = withData >= 0 ? withData : started;
  return at < 0 ? 0 : Math.floor(at / size);
}

/** The hours a DAILY page covers, like '12:00–18:00', read from the site-local labels (23 or 25 hours on a clock change). */
export function pageHours(rows: readonly Point[], page: number, size = HOURS_PER_PAGE): string {
  const first = rows[page * size];
  if (!first) return '';
  const next = rows[(page + 1) * size];
  return `${first.date.slice(11, 16)}–${next ? next.date.slice(11, 16) : '24:00'}`;
}

/** Battery panel title (spec section 2). */
export const batteryTitle = (warnings: readonly string[]) =>
  warnings.includes('BATTERY') ? 'Low Battery Power' : 'Battery Power';

/** Battery chart text instead of the chart (spec section 2). */
export function batteryPlaceholder(status: 'idle' | 'loading' | 'ready' | 'failed', points: number): string | null {
  if (status === 'idle' || status === 'loading') return 'Loading...';
  if (status === 'failed' || points === 0) return 'No Data present in the graph!';
  return null;
}

export type ToggleKind = 'maintenance' | 'active' | 'vandalism';
export type Confirmation = { title: string; body: string };
/**
 * The question a toggle asks before a change that stops the machine or locks out its users, as Pause
 * does (spec section 2 asks only for Pause; docs/decisions/device-control-confirmations.md records the
 * departure): Deactivate, Maintenance on and Anti vandalism on. The way back (Activate, turning either
 * off) gives the machine back to its users, so it runs on one click. Null: no question.
 */
export function toggleConfirmation(kind: ToggleKind, value: boolean): Confirmation | null {
  if (kind === 'active' && !value)
    return {
      title: 'Deactivate Device?',
      body: 'The device stops dispensing after its next wake-up, until it is activated again.',
    };
  if (kind === 'maintenance' && value)
    return {
      title: 'Turn On Maintenance?',
      body: 'The device goes into maintenance after its next wake-up: it does not dispense to its users until maintenance is turned off.',
    };
  if (kind === 'vandalism' && value)
    return {
      title: 'Turn On Anti vandalism?',
      body: 'After its next wake-up the device refuses users who ask for more than the Max shots within the Interval set under Device Management.',
    };
  return null;
}

/**
 * Why a number typed in a setup field cannot be saved, or null when it can: a cleared or partial field is
 * refused with a message, never read as 0 and clamped (a cleared Max shots silently saved 1 before).
 */
export function wholeNumberProblem(label: string, raw: string, min: number, max: number): string | null {
  const value = raw.trim() === '' ? NaN : Number(raw);
  if (!Number.isInteger(value) || value < min || value > max)
    return `${label}: enter a whole number from ${min} to ${max}. Nothing is saved until then.`;
  return null;
}
