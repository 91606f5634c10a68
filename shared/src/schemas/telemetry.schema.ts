import { z } from 'zod';
import {
  FILTER_DATE_TYPES,
  FILTER_DEVICE_TYPES,
  isCalendarDate,
  isDateInput,
  MONTH_RE,
  TELEMETRY_LIMITS,
  YEAR_MAX,
  YEAR_MIN,
  type SignalBand,
  type UsageStatus,
} from '../rules/telemetry.ts';
import { requiredText } from './common.ts';

/**
 * Telemetry reads of spec section 7 (getPumpLog, batteryLog, monthDataUsage, dataUsage, simLog,
 * sms_status): request schemas and answer types. The pure rules they build on (site-time buckets, usage
 * status, signal bands) are in rules/telemetry.ts, re-exported here.
 */
export * from '../rules/telemetry.ts';

// ---------------------------------------------------------------- request schemas

const DATE_MESSAGE = `Enter a valid date as YYYY-MM-DD (or an ISO 8601 date-time), years ${YEAR_MIN} to ${YEAR_MAX}.`;
const MONTH_MESSAGE = `Enter a month as YYYY-MM (or a date YYYY-MM-DD), years ${YEAR_MIN} to ${YEAR_MAX}.`;
const blankToUndefined = (v: unknown) => (v === '' || v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
const toNumber = (v: unknown) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v);
const typeError = (expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? 'This field is required.' : `Must be ${expected}.`;

const dateString = z
  .string({ error: typeError('a date string') })
  .trim()
  .max(40, { error: 'Ensure this field has no more than 40 characters.', abort: true })
  .refine(isDateInput, { error: DATE_MESSAGE });

/** A required date input: 'YYYY-MM-DD' or an ISO 8601 date-time (reports use it too). */
export const dateInputSchema = dateString;

/** A date the caller may leave out (missing, null or blank). */
const optionalDate = z.preprocess(blankToUndefined, dateString.optional());

export const serialField = requiredText(64);

const pumpNumber = z.preprocess(toNumber, z.union([z.literal(1), z.literal(2)], { error: 'Choose pump 1 (left) or 2 (right).' }));
const bodyObject = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { error: 'Send a JSON object.' });

/** POST /api/v1/getPumpLog */
export const pumpLogRequestSchema = bodyObject({
  filterDateType: z.enum(FILTER_DATE_TYPES, { error: `Choose one of ${FILTER_DATE_TYPES.join(', ')}.` }),
  pumpNumber,
  todayDate: optionalDate,
  startDate: optionalDate,
  endDate: optionalDate,
  filterDeviceType: z.enum(FILTER_DEVICE_TYPES, { error: `Choose one of ${FILTER_DEVICE_TYPES.join(', ')}.` }),
  serial: serialField,
});
export type PumpLogRequest = z.infer<typeof pumpLogRequestSchema>;

/** POST /api/v1/batteryLog (the spec's client always sends YEARLY, pump 1, SINGLE; other values are refused). */
export const batteryLogRequestSchema = bodyObject({
  filterDateType: z.literal('YEARLY', { error: "The battery log only has 'YEARLY'." }).default('YEARLY'),
  pumpNumber: pumpNumber.optional(),
  startDate: optionalDate,
  endDate: optionalDate,
  filterDeviceType: z.literal('SINGLE', { error: "The battery log only has 'SINGLE'." }).default('SINGLE'),
  serial: serialField,
});
export type BatteryLogRequest = z.infer<typeof batteryLogRequestSchema>;

/** GET /api/v1/monthDataUsage/{serial}/{date}: date is 'YYYY-MM' or any date of the month. */
export const monthDataUsageParamsSchema = z.object({
  serial: serialField,
  date: z
    .string({ error: typeError('a month') })
    .trim()
    .max(40, { error: 'Ensure this field has no more than 40 characters.', abort: true })
    .refine((v) => (MONTH_RE.test(v) ? isCalendarDate(`${v}-01`) : isDateInput(v)), { error: MONTH_MESSAGE }),
});

/** GET /api/v1/dataUsage/{serial}/{date}: one site-local day. */
export const dataUsageParamsSchema = z.object({ serial: serialField, date: dateString });

export const serialParamsSchema = z.object({ serial: serialField });

/** GET /api/v1/simLog/{serial}?limit=1..200 */
export const simLogQuerySchema = z.object({
  limit: z.preprocess(
    (v) => toNumber(blankToUndefined(v)),
    z
      .number({ error: `Enter a whole number from 1 to ${TELEMETRY_LIMITS.simLogMax}.` })
      .int({ error: `Enter a whole number from 1 to ${TELEMETRY_LIMITS.simLogMax}.` })
      .min(1, { error: `Enter a whole number from 1 to ${TELEMETRY_LIMITS.simLogMax}.` })
      .max(TELEMETRY_LIMITS.simLogMax, { error: `Enter a whole number from 1 to ${TELEMETRY_LIMITS.simLogMax}.` })
      .default(TELEMETRY_LIMITS.simLogMax),
  ),
});

// ---------------------------------------------------------------- answers

export type SeriesPoint = { date: string; value: number | null };
/** Pump log response (spec section 3). */
export type PumpLogAnswer = {
  total_left_pump_dispensation: number;
  total_right_pump_dispensation: number;
  dispensingDatas: { date: string; value: number }[];
  remainDatas: SeriesPoint[];
};
/** Battery log point (spec section 3); update_on is site-local ISO with offset. */
export type BatteryLogPoint = { battery_percent: number; battery_volt: number; update_on: string };
/** Usage per day (spec section 3), keyed by site-local date in monthDataUsage. */
export type UsageDay = { status: UsageStatus; usage: number };
export type MonthDataUsageAnswer = Record<string, UsageDay>;
/** One hour of dataUsage: name 'HH:00' (site time), value MB; start disambiguates a repeated fall-back hour. */
export type HourUsage = { name: string; value: number; status: UsageStatus; start: string };
/** SMS log (spec section 3); created_when is site-local ISO with offset. */
export type SimLogRow = { direction: string; message: string; created_when: string };
/** POST /api/v1/sms_status/{serial}: the SIM panel's summary (the spec does not show this answer). */
export type SmsStatusAnswer = {
  simcardPhoneNumber: string | null;
  imei: string | null;
  simSerialNumber: string | null;
  signal_quality: number | null;
  signal_band: SignalBand;
  last_sms_at: string | null;
  sms_in_30d: number;
  sms_out_30d: number;
  data_used_30d_mb: number;
};
