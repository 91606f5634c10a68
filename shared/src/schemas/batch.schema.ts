import { z } from 'zod';
import { BATCH_STATUSES } from '../rules/batch-status.ts';

/**
 * Batch payloads of spec sections 3, 5 and 7 (addBatch, editBatch, recallBatch) and the answers of the
 * batch calls. The Add/Edit Batch popup shows 'Required' under any empty field, so a missing, null or
 * blank value answers exactly that; other problems answer a sentence a person can act on.
 */
export const BATCH_MESSAGES = {
  required: 'Required',
  duplicateNumber: 'already has batch number',
  typeChanged: 'Batch type cannot be changed.',
  expiryBeforeInstall: 'Expiry date must be after the install date.',
  unknownPumpTypeCode: 'Unknown pump type code.',
  deleted: 'Delete batch success!',
  recalled: 'Recall batch success!',
  resumed: 'Resume batch success!',
} as const;

/** 1 Sunscreen, 2 Sanitizer, 0 none (spec section 3). */
export const BATCH_TYPE_NAME = { 0: 'None', 1: 'Sunscreen', 2: 'Sanitizer' } as const;
export type BatchTypeCode = keyof typeof BATCH_TYPE_NAME;

export function batchTypeName(code: number): (typeof BATCH_TYPE_NAME)[BatchTypeCode] {
  return BATCH_TYPE_NAME[code as BatchTypeCode] ?? 'None';
}

/** A drum is 7,040 fl.oz.; anything far beyond that is a typo, not a batch. */
export const MAX_BATCH_VOLUME_FL_OZ = 100_000;
export const MAX_BATCH_NUMBER_LENGTH = 64;

const isBlank = (input: unknown) => input === undefined || input === null || (typeof input === 'string' && input.trim() === '');
const requiredOr = (otherwise: string) => (issue: { input?: unknown }) =>
  isBlank(issue.input) ? BATCH_MESSAGES.required : otherwise;

const batchNumber = z
  .string({ error: requiredOr('Must be a string.') })
  .trim()
  .min(1, { error: BATCH_MESSAGES.required })
  .max(MAX_BATCH_NUMBER_LENGTH, { error: `Ensure this field has no more than ${MAX_BATCH_NUMBER_LENGTH} characters.` })
  // PostgreSQL text cannot hold NUL, and no label printer wants a tab or newline in a lot number.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point of this rule
  .regex(/^[^\u0000-\u001f\u007f]*$/, { error: 'Batch number may not contain control characters.' });

/** A real calendar day as 'YYYY-MM-DD' (2026-02-30 is refused, not rolled over to March). */
function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900) return false;
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

const calendarDate = z
  .string({ error: requiredOr('Must be a date string (YYYY-MM-DD).') })
  .trim()
  .min(1, { error: BATCH_MESSAGES.required, abort: true })
  .refine(isCalendarDate, { error: 'Enter a valid date (YYYY-MM-DD).' })
  .meta({ format: 'date', examples: ['2026-03-01'] });

const batchVolume = z
  .number({ error: requiredOr('Must be a number (fl.oz.).') })
  .positive({ error: 'Batch volume must be greater than 0.' })
  .max(MAX_BATCH_VOLUME_FL_OZ, { error: `Batch volume must be at most ${MAX_BATCH_VOLUME_FL_OZ} fl.oz.` })
  .describe('fl.oz. (stored in litres: x 0.0295735)');

const jsonObject = { error: 'Send a JSON object with the batch fields.' };

const expiryAfterInstall = (v: { installDate: string; expiryDate: string }, ctx: z.RefinementCtx) => {
  // Object checks run even after a field's refine failed: compare only two real dates.
  if (!isCalendarDate(v.installDate) || !isCalendarDate(v.expiryDate)) return;
  if (v.expiryDate <= v.installDate)
    ctx.addIssue({ code: 'custom', path: ['expiryDate'], message: BATCH_MESSAGES.expiryBeforeInstall });
};

/** POST /api/v1/addBatch : the ADD NEW BATCH popup. batchVolume is in fl.oz.; it is stored in litres. */
export const addBatchSchema = z
  .object(
    {
      batchType: z.literal([1, 2], { error: requiredOr('Batch type must be 1 (Sunscreen) or 2 (Sanitizer).') }),
      batchNumber,
      installDate: calendarDate,
      expiryDate: calendarDate,
      batchVolume,
    },
    jsonObject,
  )
  .superRefine(expiryAfterInstall);
export type AddBatchInput = z.infer<typeof addBatchSchema>;

/**
 * POST /api/v1/editBatch/{id} : the Edit Batch popup sends the whole form. batchType may come along
 * (the popup shows it greyed out) but must equal the stored type: the service refuses a change.
 */
export const editBatchSchema = z
  .object(
    {
      batchType: z.literal([0, 1, 2], { error: 'Batch type must be 0, 1 (Sunscreen) or 2 (Sanitizer).' }).nullish(),
      batchNumber,
      installDate: calendarDate,
      expiryDate: calendarDate,
      batchVolume,
    },
    jsonObject,
  )
  .superRefine(expiryAfterInstall);
export type EditBatchInput = z.infer<typeof editBatchSchema>;

/** POST /api/v1/recallBatch/{id} : an empty body recalls without pausing. */
export const recallBatchSchema = z.object(
  {
    pauseDevices: z
      .boolean({ error: 'Must be true or false.' })
      .optional()
      .default(false)
      .describe('Also pause every device the batch feeds (a pending change each, picked up at the next wake-up)'),
  },
  { error: 'Send a JSON object, e.g. {"pauseDevices": true}, or no body.' },
);
export type RecallBatchInput = z.infer<typeof recallBatchSchema>;

/** The pumpTypeCode of GET /api/v1/batch/{pumpTypeCode}: 0 Unspecified, 1 Sunscreen, 2 Sanitizer. */
export const pumpTypeCodeSchema = z.enum(['0', '1', '2'], { error: BATCH_MESSAGES.unknownPumpTypeCode }).transform(Number);

// ---------------------------------------------------------------- answers

/** One batch as every batch call answers it: the spec's two spellings of each field, both present. */
export const batchAnswerSchema = z.object({
  id: z.number().int(),
  batchType: z.number().int(),
  batch_type: z.number().int(),
  batch_type_name: z.enum(['Sunscreen', 'Sanitizer', 'None']),
  batchNumber: z.string(),
  batch_no: z.string(),
  installDate: z.string(),
  install_date: z.string(),
  expiryDate: z.string(),
  expire_date: z.string(),
  batchVolume: z.number().describe('Total volume in fl.oz., 2 decimals'),
  volume: z.number().describe('Total volume in litres'),
  remain: z.number().describe('Remaining volume in litres'),
  remain_fl_oz: z.number().describe('Remaining volume in fl.oz., 2 decimals'),
  created_on: z.string(),
  in_use: z.boolean().describe('Fed to at least one device (in the caller scope)'),
  is_using: z.boolean(),
  device_count: z.number().int(),
  status: z.enum(BATCH_STATUSES),
  status_label: z.string(),
  is_recalled: z.boolean(),
  recalled_at: z.string().nullable(),
  brand_lists: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type BatchAnswer = z.infer<typeof batchAnswerSchema>;

/** A device fed by a batch, with the pump(s) it feeds (1 left, 2 right). */
export const batchDeviceSchema = z.object({
  id: z.number().int(),
  serial: z.string(),
  label: z.string(),
  address: z.string(),
  brand_id: z.number().int().nullable(),
  brand_name: z.string().nullable(),
  pumps: z.array(z.union([z.literal(1), z.literal(2)])),
  is_pause: z.boolean(),
});
export type BatchDevice = z.infer<typeof batchDeviceSchema>;

export const recallBatchAnswerSchema = z.object({
  detail: z.literal(BATCH_MESSAGES.recalled),
  batch: batchAnswerSchema,
  devices: z.array(batchDeviceSchema),
  paused: z.number().int().describe('Devices this call paused (devices already paused are not counted)'),
  already_recalled: z.boolean().describe('True when the batch was recalled before this call: nobody is mailed again'),
  notified: z
    .array(z.object({ email: z.string(), name: z.string(), company: z.string(), devices: z.number().int() }))
    .describe('Client companies a recall notice was queued for by this call'),
});
export type RecallBatchAnswer = z.infer<typeof recallBatchAnswerSchema>;

export const resumeBatchAnswerSchema = z.object({
  detail: z.literal(BATCH_MESSAGES.resumed),
  batch: batchAnswerSchema,
  devices: z.array(batchDeviceSchema),
  still_paused: z.number().int().describe('Devices of the list that are still paused: resuming a batch does not resume them'),
  note: z.string(),
});
export type ResumeBatchAnswer = z.infer<typeof resumeBatchAnswerSchema>;
