import { describe, expect, it } from 'vitest';
import { pageZone, siteTime } from './site-time';

describe('site times', () => {
  it('names the zone after the time', () => {
    expect(siteTime('2026-03-01T18:04:00Z', 'America/Chicago')).toBe('1 Mar 2026 12:04 PM CST');
    expect(siteTime('2026-07-01T18:04:00Z', 'America/Chicago')).toBe('1 Jul 2026 1:04 PM CDT');
    expect(siteTime('2026-03-01T18:04:00Z', 'No/Such_Zone')).toBe('1 Mar 2026 6:04 PM UTC');
  });

  it("a page's own times take the sites' zone when they share one, else UTC, never the viewer's", () => {
    expect(pageZone(['America/Chicago', 'America/Chicago'])).toBe('America/Chicago');
    expect(pageZone(['America/Chicago', 'America/New_York', 'America/Chicago'])).toBe('UTC');
    // A site without a zone reads as UTC, like its times.
    expect(pageZone(['America/Chicago', null])).toBe('UTC');
    expect(pageZone([])).toBe('UTC');
  });
});
