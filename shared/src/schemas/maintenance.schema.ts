import { z } from 'zod';
import { serialListQuery, serialSchema } from './device.schema.ts';
import { requiredText, text } from './common.ts';

/**
 * The technician's views (/maintenance, /maintenance-result). Where the spec is silent: what was done is
 * recorded per device as one or more actions with an optional note.
 */
export const MAINTENANCE_ACTIONS = ['refilled', 'batch_replaced', 'repaired', 'battery_replaced'] as const;
export type MaintenanceAction = (typeof MAINTENANCE_ACTIONS)[number];
export const MAINTENANCE_ACTION_TEXT: Record<MaintenanceAction, string> = {
  refilled: 'Refilled',
  batch_replaced: 'Batch replaced',
  repaired: 'Repaired',
  battery_replaced: 'Battery replaced',
};

/** A record's photo: a JPEG of at most 1 MB once decoded (the field app resizes it on the phone first). */
export const MAINTENANCE_PHOTO_MAX_BYTES = 1024 * 1024;
/** How far back the time of an act on the phone is accepted (records kept offline for a long shift and more). */
export const MAINTENANCE_BACKDATE_DAYS = 7;
/**
 * A phone's clock may run a little ahead of the server's: an act this close to "now" is not "in the
 * future" (it is stored at the server's now instead). Anything later is refused.
 */
export const MAINTENANCE_CLOCK_SKEW_MS = 2 * 60_000;

/** Base64 of a JPEG (plain, or as a data: URL); its decoded size is checked against the limit. */
const photoSchema = z
  .string({ error: 'The photo is a base64 JPEG.' })
  .transform((v) => v.replace(/^data:image\/jpeg;base64,/, ''))
  .pipe(
    z
      .string()
      .max(Math.ceil(MAINTENANCE_PHOTO_MAX_BYTES / 3) * 4, { error: 'The photo is larger than 1 MB.' })
      .regex(/^[A-Za-z0-9+/]+={0,2}$/, { error: 'The photo is a base64 JPEG.' })
      // Every JPEG starts with the bytes FF D8 FF, which base64 writes as "/9j/".
      .refine((v) => v.startsWith('/9j/'), { error: 'The photo must be a JPEG.' }),
  );

/** One pump refilled, with the batch poured in: the batch's id, or its batch number. */
export const maintenanceRefillSchema = z.object({
  pump: z.union([z.literal(1), z.literal(2)], { error: 'pump is 1 (left) or 2 (right).' }),
  batch: z.union([z.number().int().positive(), requiredText(64)], { error: 'Choose the batch poured in.' }),
});
export type MaintenanceRefill = z.infer<typeof maintenanceRefillSchema>;

/** The crew the technician declared in the field app (the credential is shared: declared, not proven). */
export const maintenanceCrewSchema = z.object({
  id: z.union([z.number().int(), requiredText(100)], { error: 'The crew id is a number or a short text.' }).transform(String),
  name: requiredText(100),
});

/**
 * POST /api/v1/maintenanceRecord. The first body (serial, actions, note) still works; the field app adds:
 * - refills: per pump, with the batch poured in (the device's remaining volume and batch change, as the
 *   portal's resetMl and batch change do);
 * - battery_replaced; repaired (with the note saying what);
 * - photo: a base64 JPEG of at most 1 MB;
 * - performed_at: the time of the act on the phone (within the last 7 days, never in the future);
 * - idempotency_key: the phone's key for this record (sent twice, stored once);
 * - crew: the crew the technician declared.
 * What was done is the union of `actions` and the flags (a refill is 'refilled').
 */
export const maintenanceRecordInputSchema = z
  .object({
    serial: serialSchema,
    actions: z
      .array(z.enum(MAINTENANCE_ACTIONS, { error: `Each action is one of ${MAINTENANCE_ACTIONS.join(', ')}.` }), {
        error: 'Choose what was done.',
      })
      .max(MAINTENANCE_ACTIONS.length)
      .optional()
      .default([]),
    note: text(1000).optional().default(''),
    refills: z
      .array(maintenanceRefillSchema, { error: 'refills is a list of {pump, batch}.' })
      .max(2, { error: 'A device has at most two pumps.' })
      .refine((list) => new Set(list.map((r) => r.pump)).size === list.length, {
        error: 'Each pump is refilled once in a record.',
      })
      .optional()
      .default([]),
    battery_replaced: z.boolean({ error: 'battery_replaced is true or false.' }).optional().default(false),
    repaired: z.boolean({ error: 'repaired is true or false.' }).optional().default(false),
    photo: photoSchema.optional(),
    performed_at: z.iso
      .datetime({ offset: true, error: 'performed_at is an ISO date and time, like 2026-05-01T14:30:00Z.' })
      .optional(),
    idempotency_key: z
      .string({ error: 'idempotency_key is 8 to 100 letters, digits, - or _.' })
      .regex(/^[A-Za-z0-9_-]{8,100}$/, { error: 'idempotency_key is 8 to 100 letters, digits, - or _.' })
      .optional(),
    crew: maintenanceCrewSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.actions.length && !v.refills.length && !v.battery_replaced && !v.repaired)
      ctx.addIssue({ code: 'custom', path: ['actions'], message: 'Choose what was done.' });
    if (v.repaired && !v.note) ctx.addIssue({ code: 'custom', path: ['note'], message: 'Say what was repaired.' });
  })
  .transform((v) => {
    const actions = new Set<MaintenanceAction>(v.actions);
    if (v.refills.length) actions.add('refilled');
    if (v.battery_replaced) actions.add('battery_replaced');
    if (v.repaired) actions.add('repaired');
    return { ...v, actions: MAINTENANCE_ACTIONS.filter((a) => actions.has(a)) };
  });
export type MaintenanceRecordInput = z.input<typeof maintenanceRecordInputSchema>;

/** Why a device is on the /maintenance list. */
export const MAINTENANCE_REASONS = ['in_maintenance', 'warning', 'low_fluid', 'low_battery', 'batch', 'runs_out_soon'] as const;
export type MaintenanceReason = (typeof MAINTENANCE_REASONS)[number];

const forecastSchema = z.union([
  z.object({
    kind: z.literal('forecast'),
    days: z.number(),
    beyondHorizon: z.boolean(),
    mlPerDay: z.number(),
    basisDays: z.number(),
    basis: z.string(),
  }),
  z.object({ kind: z.literal('not-enough-data'), basisDays: z.number(), basis: z.string() }),
]);

export const maintenancePumpSchema = z.object({
  pump: z.union([z.literal(1), z.literal(2)]),
  pump_type: z.string(),
  volume_remain: z.number(),
  low_fluid: z.boolean(),
  batch: z
    .object({ id: z.number(), batch_no: z.string(), status: z.string(), is_recalled: z.boolean(), expire_date: z.string() })
    .nullable(),
  forecast: forecastSchema,
  /** The forecast in words: "~3 days at the last 4 weeks' rate", or "not enough data". */
  forecast_text: z.string(),
});

/** One row of GET /api/v1/maintenanceDevices. */
export const maintenanceDeviceSchema = z.object({
  serial: z.string(),
  label: z.string(),
  number: z.number().nullable(),
  /** The device's brand (the field app's batch choice: first expiry first out among its brand's batches). */
  brand_id: z.number().nullable(),
  site: z.object({ id: z.number(), name: z.string(), address: z.string(), timezone_id: z.string().nullable() }),
  is_maintenance: z.boolean(),
  is_online: z.boolean(),
  battery_percent: z.number().nullable(),
  low_battery: z.boolean(),
  warning_lists: z.array(z.string()),
  reasons: z.array(z.enum(MAINTENANCE_REASONS)),
  pumps: z.array(maintenancePumpSchema),
  /** The soonest a pump of it runs dry (days), null when no pump has a forecast. */
  runs_out_in_days: z.number().nullable(),
  last_record: z.object({ performed_at: z.string(), actions: z.array(z.string()) }).nullable(),
});
export type MaintenanceDevice = z.infer<typeof maintenanceDeviceSchema>;

/**
 * GET /api/v1/maintenanceDevices?serials=a,b: those devices (in the caller's scope) whatever their reasons:
 * the field app's scanned device and its day's plan. Without it: the devices needing a visit.
 */
export const maintenanceDevicesQuerySchema = z.object({
  serials: serialListQuery().optional(),
});

/** One row of GET /api/v1/maintenanceRecords (newest first). */
export const maintenanceRecordSchema = z.object({
  id: z.number(),
  serial: z.string(),
  label: z.string(),
  site: z.object({ name: z.string(), address: z.string(), timezone_id: z.string().nullable() }).nullable(),
  actions: z.array(z.enum(MAINTENANCE_ACTIONS)),
  note: z.string(),
  recorded_by: z.string(),
  performed_at: z.string(),
  /** When the server stored it (performed_at is the phone's time of the act). */
  received_at: z.string(),
  refills: z.array(
    z.object({ pump: z.union([z.literal(1), z.literal(2)]), batch_id: z.number(), batch_no: z.string(), recalled: z.boolean() }),
  ),
  crew: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** GET it with the same credential (null without a photo). */
  photo_url: z.string().nullable(),
  /** What the record raised on the device, in words (a refill from a batch recalled meanwhile). */
  warnings: z.array(z.string()),
});
export type MaintenanceRecord = z.infer<typeof maintenanceRecordSchema>;

export const maintenanceRecordsQuerySchema = z.object({
  limit: z.coerce.number({ error: 'limit is a number from 1 to 500.' }).int().min(1).max(500).optional().default(200),
  serial: serialSchema.optional(),
});

/** GET /api/v1/maintenanceCredential (distributor): whether a credential is active, never its value. */
export const maintenanceCredentialStatusSchema = z.object({
  active: z.number(),
  last_created_at: z.string().nullable(),
  source: z.string().nullable(),
});
export type MaintenanceCredentialStatus = z.infer<typeof maintenanceCredentialStatusSchema>;
/** POST /api/v1/maintenanceCredential/rotate: the new credential, shown this once. */
export const maintenanceCredentialRotatedSchema = z.object({ token: z.string(), link: z.string(), revoked: z.number() });
