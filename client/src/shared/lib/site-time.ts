const formatters = new Map<string, Intl.DateTimeFormat>();
/** One formatter per zone: building one costs more than formatting, and a fleet has few zones. */
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        hour12: true,
        timeZoneName: 'short',
      });
    } catch {
      // An unknown zone reads as UTC (the zone named in the answer says so).
      format = formatterOf('UTC');
    }
    formatters.set(timeZone, format);
  }
  return format;
}

/** A moment in a site's zone, the zone named: '1 Mar 2026 12:04 PM CST' (an unknown zone reads as UTC). */
export function siteTime(iso: string, timeZone: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const parts = formatterOf(timeZone).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')} ${part('month')} ${part('year')} ${part('hour')}:${part('minute')} ${part('dayPeriod')} ${part('timeZoneName')}`;
}

/**
 * The one zone a page's own times (when it was opened or refreshed) are shown in, beside times already in
 * their sites' zones: the sites' zone when they share one (a fleet's usual case), so the page reads in one
 * zone; UTC when they do not (each row then names its own zone, and this one names UTC). Never the
 * viewer's own zone, which would put a second, unnamed zone on the page.
 */
export function pageZone(zones: Iterable<string | null | undefined>): string {
  let zone: string | null = null;
  for (const z of zones) {
    const each = z || 'UTC';
    if (zone === null) zone = each;
    else if (zone !== each) return 'UTC';
  }
  return zone ?? 'UTC';
}
