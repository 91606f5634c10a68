import dayjs from 'dayjs';

/** What the clock panel shows for `now`, in the browser's time zone. */
export type ClockFace = {
  time: string;
  seconds: string;
  meridiem: string;
  gmt: string;
  weekday: string;
  day: string;
  month: string;
  year: string;
  iso: string;
};

export function clockFace(now: number): ClockFace {
  const at = dayjs(now);
  return {
    time: at.format('h:mm'),
    seconds: at.format('ss'),
    meridiem: at.format('A'),
    gmt: gmtLabel(at.utcOffset()),
    weekday: at.format('dddd'),
    day: at.format('D'),
    month: at.format('MMMM'),
    year: at.format('YYYY'),
    iso: at.format(),
  };
}

/**
 * The offset as people write it: 'GMT+0', 'GMT-6', 'GMT+5:30' (never a bare 'GMT', which reads as a zone
 * name rather than an offset).
 */
export function gmtLabel(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const minutes = abs % 60;
  return `GMT${sign}${Math.floor(abs / 60)}${minutes ? `:${String(minutes).padStart(2, '0')}` : ''}`;
}
