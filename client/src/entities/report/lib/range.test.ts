import { describe, expect, it } from 'vitest';
import { browserZoneLabel, dayCount, dayCountText, defaultRange, localDay, rangeProblem, reportBody, reportFile } from './range';

describe('report range', () => {
  it("defaults to the last whole day, yesterday to yesterday in the browser's zone: 1 day, no problem", () => {
    const range = defaultRange(new Date(2026, 2, 1, 9, 30));
    expect(range).toEqual({ startDate: '2026-02-28', endDate: '2026-02-28' });
    expect(dayCount(range)).toBe(1);
    expect(rangeProblem(range)).toBeNull();
    // Just after midnight the last whole day is the day before.
    expect(defaultRange(new Date(2026, 0, 1, 0, 5))).toEqual({ startDate: '2025-12-31', endDate: '2025-12-31' });
  });

  it('names the browser zone with its offset', () => {
    const now = new Date(2026, 2, 1, 9, 30);
    const minutes = -now.getTimezoneOffset();
    const hh = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
    const mm = String(Math.abs(minutes) % 60).padStart(2, '0');
    expect(browserZoneLabel(now, 'America/Chicago')).toBe(`America/Chicago (UTC${minutes < 0 ? '-' : '+'}${hh}:${mm})`);
  });

  it('counts both days and words the count', () => {
    expect(dayCount({ startDate: '2026-03-01', endDate: '2026-03-01' })).toBe(1);
    expect(dayCount({ startDate: '2026-02-27', endDate: '2026-03-08' })).toBe(10);
    expect(dayCount({ startDate: '', endDate: '2026-03-08' })).toBe(0);
    expect(dayCountText(1)).toBe('1 day');
    expect(dayCountText(0)).toBe('0 days');
    expect(dayCountText(10)).toBe('10 days');
    expect(rangeProblem({ startDate: '2026-03-01', endDate: '2026-03-01' })).toBeNull();
    expect(rangeProblem({ startDate: '', endDate: '2026-03-01' })).toBe('Pick a start date and an end date.');
  });

  it('sends whole days with their offsets and names files as the spec does, without slashes', () => {
    const offset = (day: string) => (day < '2026-03-08' ? '-06:00' : '-05:00');
    const body = reportBody(['A', 'B'], { startDate: '2026-03-01', endDate: '2026-03-08' }, offset);
    expect(body).toEqual({
      deviceSerials: ['A', 'B'],
      startDate: '2026-03-01T00:00:00-06:00',
      endDate: '2026-03-08T23:59:59-05:00',
    });
    expect(reportFile(body, 'xlsx')).toBe('2026_Mar_01-2026_Mar_08.xlsx');
    expect(reportFile(body, 'pdf')).toBe('2026_Mar_01-2026_Mar_08.pdf');
  });

  it('reads the local calendar day', () => {
    expect(localDay(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});
