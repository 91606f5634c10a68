import dayjs from 'dayjs';

/** What the clock panel shows for `now`, in the browser's time zone. */
export type ClockFace = { time: string; seconds: string; meridiem: string; gmt: string; weekday: string; day: string; month: string; year: string; iso: string };

export function clockFace(now: number): ClockFace {
  const at = dayjs(now);
  const offset = at.format('Z'); // +05:30, -06:00
  return {
    time: at.format('h:mm'),
    seconds: at.format('ss'),
    meridiem: at.format('A'),
    gmt: `GMT${offset === '+00:00' ? '' : offset}`,
    weekday: at.format('dddd'),
    day: at.format('D'),
    month: at.format('MMMM'),
    year: at.format('YYYY'),
    iso: at.format(),
  };
}
