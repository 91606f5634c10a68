import { z } from 'zod';
import {
  FILTER_DATE_TYPES,
  FILTER_DEVICE_TYPES,
  isCalendarDate,
  isDateInput,
  MONTH_RE,
  SIGNAL_BANDS,
  TELEMETRY_LIMITS,
  USAGE_STATUSES,
  YEAR_MAX,
  YEAR_MIN,
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
// Each answer is a schema (the endpoint declarations in api/telemetry.ts carry them, and every integration
// test parses the server's answers with them); the TypeScript types are inferred from it.

const seriesPointSchema = z.object({ date: z.string(), value: z.number().nullable() });
export type SeriesPoint = z.infer<typeof seriesPointSchema>;

/** Pump log response (spec section 3). */
export const pumpLogAnswerSchema = z.object({
  total_left_pump_dispensation: z.number(),
  total_right_pump_dispensation: z.number(),
  dispensingDatas: z.array(z.object({ date: z.string(), value: z.number() })),
  remainDatas: z.array(seriesPointSchema),
});
export type PumpLogAnswer = z.infer<typeof pumpLogAnswerSchema>;

/** Battery log point (spec section 3); update_on is site-local ISO with offset. */
export const batteryLogPointSchema = z.object({ battery_percent: z.number(), battery_volt: z.number(), update_on: z.string() });
export type BatteryLogPoint = z.infer<typeof batteryLogPointSchema>;

const usageStatusSchema = z.enum(USAGE_STATUSES);
/** Usage per day (spec section 3), keyed by site-local date in monthDataUsage. */
const usageDaySchema = z.object({ status: usageStatusSchema, usage: z.number() });
export type UsageDay = z.infer<typeof usageDaySchema>;
export const monthDataUsageAnswerSchema = z.record(z.string(), usageDaySchema);
export type MonthDataUsageAnswer = z.infer<typeof monthDataUsageAnswerSchema>;

/** One hour of dataUsage: name 'HH:00' (site time), value MB; start disambiguates a repeated fall-back hour. */
export const hourUsageSchema = z.object({ name: z.string(), value: z.number(), status: usageStatusSchema, start: z.string() });
export type HourUsage = z.infer<typeof hourUsageSchema>;

/** SMS log (spec section 3); created_when is site-local ISO with offset. */
export const simLogRowSchema = z.object({ direction: z.string(), message: z.string(), created_when: z.string() });
export type SimLogRow = z.infer<typeof simLogRowSchema>;

/** POST /api/v1/sms_status/{serial}: the SIM panel's summary (the spec does not show this answer). */
export const smsStatusAnswerSchema = z.object({
  simcardPhoneNumber: z.string().nullable(),
  imei: z.string().nullable(),
  simSerialNumber: z.string().nullable(),
  signal_quality: z.number().nullable(),
  signal_band: z.enum([...SIGNAL_BANDS, 'error', 'Unavailable']),
  last_sms_at: z.string().nullable(),
  sms_in_30d: z.number(),
  sms_out_30d: z.number(),
  data_used_30d_mb: z.number(),
});
export type SmsStatusAnswer = z.infer<typeof smsStatusAnswerSchema>;
