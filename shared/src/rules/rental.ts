/** Rental day count of spec section 5: end minus start in days, plus 1. Dates 'YYYY-MM-DD'. */
export function rentalDayCount(startDate: string, endDate: string): number {
  return Math.round((Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / 86_400_000) + 1;
}

/** 'N day(s)' in the subscription tab; the dashboard says 'day' for one, else 'days'. */
export const dayCountLabel = (n: number) => `${n} day(s)`;
export const dashboardDayLabel = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

/** Time pickers move in 15-minute steps ('HH:mm', 24-hour on the wire, 12-hour on screen). */
export function isQuarterHour(time: string): boolean {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  return !!m && Number(m[2]) % 15 === 0;
}
