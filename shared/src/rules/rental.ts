import { plural } from '../lib/plural.ts';

/** Rental day count of spec section 5: end minus start in days, plus 1. Dates 'YYYY-MM-DD'. */
export function rentalDayCount(startDate: string, endDate: string): number {
  return Math.round((Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / 86_400_000) + 1;
}

/** 'N day(s)' in the subscription tab; the dashboard says 'day' for one, else 'days'. */
export const dayCountLabel = (n: number) => `${n} day(s)`;
export const dashboardDayLabel = (n: number) => plural(n, 'day');

/** Time pickers move in 15-minute steps ('HH:mm', 24-hour on the wire, 12-hour on screen). */
export function isQuarterHour(time: string): boolean {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(time);
  return !!m && Number(m[2]) % 15 === 0;
}

export const RENTAL_MESSAGES = {
  datesRequired: 'Pick a start date and an end date.',
  endBeforeStart: 'The end date is before the start date.',
  endTimeBeforeStart: 'The end time must be after the start time.',
} as const;

/**
 * Why a rental plan's dates cannot be saved, in the words the server answers (rentalSchema); null when
 * they can. The form shows it and keeps Save disabled: an end before the start read '0 day(s)' with Save on.
 */
export function rentalDatesProblem(startDate: string, endDate: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(startDate) || !/^\d{4}-\d{2}-\d{2}$/.test(endDate)) return RENTAL_MESSAGES.datesRequired;
  return endDate < startDate ? RENTAL_MESSAGES.endBeforeStart : null;
}
