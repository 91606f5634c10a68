import { daysBetween, isCalendarDate, plural, REPORT_MESSAGES, reportFileName, safeFileName } from '@fleet/shared';

/**
 * The report range of the Report List view as pure functions: calendar days picked in the browser,
 * sent as ISO 8601 with the browser's offset (spec section 7), both days included.
 */
export type ReportRange = { startDate: string; endDate: string };
/** The body of POST /api/v1/report, /downloadReport and (with emails) /emailReport. */
export type ReportBody = { deviceSerials: string[]; startDate: string; endDate: string };
export type ReportFormat = 'pdf' | 'xlsx';

const pad = (n: number) => String(n).padStart(2, '0');
/** The browser's calendar day of a moment, 'YYYY-MM-DD'. */
export const localDay = (at: Date) => `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;

/**
 * The last whole day: start of yesterday to end of yesterday, in the browser's zone (1 day). The spec's
 * 'start today, end end of yesterday' is an empty range (0 days, an error before anything is picked);
 * docs/decisions/report-list-default-range.md records the departure.
 */
export function defaultRange(now: Date): ReportRange {
  const yesterday = localDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - 1));
  return { startDate: yesterday, endDate: yesterday };
}

/**
 * The browser's zone as the Report List names it: its IANA name and its offset today, e.g.
 * 'America/Chicago (UTC-05:00)'. The range's days are that zone's days (reportBody sends its offsets).
 */
export function browserZoneLabel(now: Date, zone: string = Intl.DateTimeFormat().resolvedOptions().timeZone): string {
  const minutes = -now.getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${zone || 'Local time'} (UTC${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)})`;
}

/** Days in the range, both ends included (end minus start plus 1); 0 when the range is empty or unset. */
export function dayCount({ startDate, endDate }: ReportRange): number {
  if (!isCalendarDate(startDate) || !isCalendarDate(endDate)) return 0;
  return Math.max(0, daysBetween(startDate, endDate) + 1);
}

/** 'N day(s)' as the dashboard words it (spec section 5): 'day' for one, else 'days'. */
export const dayCountText = (days: number) => plural(days, 'day');

/** Why the range cannot be reported, in the server's words; null when it can. */
export function rangeProblem({ startDate, endDate }: ReportRange): string | null {
  if (!isCalendarDate(startDate) || !isCalendarDate(endDate)) return 'Pick a start date and an end date.';
  if (startDate > endDate) return REPORT_MESSAGES.startAfterEnd;
  return null;
}

/** '+hh:mm' / '-hh:mm' of the browser's zone on that day (a range may cross a daylight-saving change). */
export function offsetOf(day: string): string {
  const minutes = -new Date(`${day}T12:00:00`).getTimezoneOffset();
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The spec's request body: the first day from its midnight, the last to its end, with offsets. */
export function reportBody(
  serials: readonly string[],
  range: ReportRange,
  offset: (day: string) => string = offsetOf,
): ReportBody {
  return {
    deviceSerials: [...serials],
    startDate: `${range.startDate}T00:00:00${offset(range.startDate)}`,
    endDate: `${range.endDate}T23:59:59${offset(range.endDate)}`,
  };
}

/** The saved file: the spec's '<start>-<end>.<ext>' (YYYY/MMM/DD) with '_' for the slashes no file system takes. */
export function reportFile(body: Pick<ReportBody, 'startDate' | 'endDate'>, format: ReportFormat): string {
  return safeFileName(reportFileName(body.startDate.slice(0, 10), body.endDate.slice(0, 10), format));
}
