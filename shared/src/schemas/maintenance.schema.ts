import { z } from 'zod';
import { serialSchema } from './device.schema.ts';
import { text } from './common.ts';

/**
 * The technician's views (/maintenance, /maintenance-result). Where the spec is silent: what was done is
 * recorded per device as one or more actions with an optional note.
 */
export const MAINTENANCE_ACTIONS = ['refilled', 'batch_replaced', 'repaired'] as const;
export type MaintenanceAction = (typeof MAINTENANCE_ACTIONS)[number];
export const MAINTENANCE_ACTION_TEXT: Record<MaintenanceAction, string> = {
  refilled: 'Refilled',
  batch_replaced: 'Batch replaced',
  repaired: 'Repaired',
};

/** POST /api/v1/maintenanceRecord */
export const maintenanceRecordInputSchema = z.object({
  serial: serialSchema,
  actions: z
    .array(z.enum(MAINTENANCE_ACTIONS, { error: `Each action is one of ${MAINTENANCE_ACTIONS.join(', ')}.` }), { error: 'Choose what was done.' })
    .min(1, { error: 'Choose what was done.' })
    .max(MAINTENANCE_ACTIONS.length)
    .transform((list) => [...new Set(list)]),
  note: text(1000).optional().default(''),
});
export type MaintenanceRecordInput = z.input<typeof maintenanceRecordInputSchema>;

/** Why a device is on the /maintenance list. */
export const MAINTENANCE_REASONS = ['in_maintenance', 'warning', 'low_fluid', 'low_battery', 'batch', 'runs_out_soon'] as const;
export type MaintenanceReason = (typeof MAINTENANCE_REASONS)[number];

const forecastSchema = z.union([
  z.object({ kind: z.literal('forecast'), days: z.number(), beyondHorizon: z.boolean(), mlPerDay: z.number(), basisDays: z.number(), basis: z.string() }),
  z.object({ kind: z.literal('not-enough-data'), basisDays: z.number(), basis: z.string() }),
]);

export const maintenancePumpSchema = z.object({
  pump: z.union([z.literal(1), z.literal(2)]),
  pump_type: z.string(),
  volume_remain: z.number(),
  low_fluid: z.boolean(),
  batch: z.object({ id: z.number(), batch_no: z.string(), status: z.string(), is_recalled: z.boolean(), expire_date: z.string() }).nullable(),
  forecast: forecastSchema,
  /** The forecast in words: "~3 days at the last 4 weeks' rate", or "not enough data". */
  forecast_text: z.string(),
});

/** One row of GET /api/v1/maintenanceDevices. */
export const maintenanceDeviceSchema = z.object({
  serial: z.string(),
  label: z.string(),
  number: z.number().nullable(),
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
/** POST /api/v1/maintenanceCredential/rotate: the new credential, shown this once. */
export const maintenanceCredentialRotatedSchema = z.object({ token: z.string(), link: z.string(), revoked: z.number() });
