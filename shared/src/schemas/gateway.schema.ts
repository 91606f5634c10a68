import { z } from 'zod';
import { text } from './common.ts';

/**
 * The device-facing gateway (/device/v1): a device wakes up, checks in with what it measured since its
 * last check-in, gets back its desired configuration and the pending changes to apply, and acknowledges
 * the ones it applied in its next check-in. Authentication: `Authorization: Basic base64(serial:secret)`.
 *
 * Idempotency: dispenses and SMS carry the device's own sequence number (per pump for dispenses); a
 * retried upload is accepted again without counting twice. Readings (battery, level, data usage) are keyed
 * by their timestamp. Events may arrive late and out of order; they are stored at their own time.
 */
const at = z.iso.datetime({ offset: true, error: 'Use an ISO 8601 timestamp with a time zone.' });
const pump = z.union([z.literal(1), z.literal(2)], { error: 'pump is 1 (left) or 2 (right).' });

export const GATEWAY_LIMITS = {
  dispenses: 5000,
  readings: 1000,
  sms: 500,
  /** Timestamps further ahead of the server clock than this are refused (a wrong device clock). */
  futureToleranceMs: 5 * 60_000,
  /** Oldest event accepted, so a broken clock cannot write into years past. */
  maxAgeDays: 400,
} as const;

export const checkinSchema = z.object({
  sentAt: at,
  softwareVersion: text(32).optional(),
  dispenses: z
    .array(z.object({ seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), pump, at, ml: z.number().positive().max(50) }))
    .max(GATEWAY_LIMITS.dispenses, { error: `At most ${GATEWAY_LIMITS.dispenses} dispenses per check-in.` })
    .default([]),
  levels: z
    .array(z.object({ pump, at, sensor: z.boolean(), volumeRemain: z.number().min(0).max(100_000) }))
    .max(GATEWAY_LIMITS.readings)
    .default([]),
  batteries: z
    .array(z.object({ at, volt: z.number().min(0).max(60), percent: z.number().min(0).max(100) }))
    .max(GATEWAY_LIMITS.readings)
    .default([]),
  dataUsage: z
    .array(z.object({ at, kb: z.number().min(0).max(10_000_000), signalQuality: z.number().int().min(0).max(100).optional() }))
    .max(GATEWAY_LIMITS.readings)
    .default([]),
  sms: z
    .array(
      z.object({
        seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
        direction: z.enum(['IN', 'OUT']),
        message: text(480),
        at,
      }),
    )
    .max(GATEWAY_LIMITS.sms)
    .default([]),
  /** Current signal quality 0..100 (spec section 9 bands). */
  signalQuality: z.number().int().min(0).max(100).optional(),
  location: z.object({ lat: z.number().min(-90).max(90), lng: z.number().min(-180).max(180), at }).optional(),
  faults: z.object({ pumpSensor: z.boolean().optional() }).optional(),
  /** Ids of pending changes the device applied since its last check-in. */
  applied: z.array(z.number().int().positive()).max(100).default([]),
  /** Pending changes the device could not apply. */
  failed: z
    .array(z.object({ id: z.number().int().positive(), reason: z.string().max(200) }))
    .max(100)
    .default([]),
});
export type CheckinInput = z.infer<typeof checkinSchema>;

/** The configuration a device should run with, answered to every check-in (schemas: the answer's contract; types inferred). */
export const deviceConfigAnswerSchema = z.object({
  is_pause: z.boolean(),
  is_activated: z.boolean(),
  is_enabled_maintenance: z.boolean(),
  is_enabled_vandalism: z.boolean(),
  rental: z
    .object({
      start_date: z.string(),
      end_date: z.string(),
      start_time: z.string().nullable(),
      end_time: z.string().nullable(),
      pump_2_start_time: z.string().nullable(),
      pump_2_end_time: z.string().nullable(),
    })
    .nullable(),
  pump: z.object({
    steps_per_second: z.number(),
    steps_per_ml: z.number(),
    ml_per_shot: z.number(),
    steps_per_second2: z.number(),
    steps_per_ml2: z.number(),
    ml_per_shot2: z.number(),
    vandalism_max_shots: z.number(),
    vandalism_interval: z.number(),
  }),
  /** Minutes the device sleeps between check-ins, and stays awake at each wake-up. */
  poweroff_minutes: z.number(),
  wakeup_minutes: z.number(),
  time_zone: z.string().nullable(),
});
export type DeviceConfig = z.infer<typeof deviceConfigAnswerSchema>;

/** Changes to apply now; acknowledge them in `applied` of the next check-in. */
const pendingForDeviceSchema = z.array(z.object({ id: z.number().int(), setting: z.string(), desired: z.unknown() }));

export const checkinAnswerSchema = z.object({
  serverTime: z.string(),
  accepted: z.object({
    dispenses: z.number().int(),
    duplicates: z.number().int(),
    levels: z.number().int(),
    batteries: z.number().int(),
    dataUsage: z.number().int(),
    sms: z.number().int(),
  }),
  config: deviceConfigAnswerSchema,
  pending: pendingForDeviceSchema,
  /** When the portal expects the next check-in (it shows 'Update after {time}'). */
  nextCheckinBy: z.string(),
});
export type CheckinAnswer = z.infer<typeof checkinAnswerSchema>;

/** POST /api/v1/deviceSecret/{serial}: a distributor rotates a device's secret (shown once). */
export const deviceSecretAnswerSchema = z.object({ serial: z.string(), secret: z.string() });
export type DeviceSecretAnswer = z.infer<typeof deviceSecretAnswerSchema>;

/** POST /api/v1/provisionDevices: a distributor registers new serials (unplaced) for hardware about to ship. */
export const provisionDevicesSchema = z.object({
  serials: z
    .array(
      z
        .string()
        .trim()
        .regex(/^[A-Za-z0-9_-]{3,32}$/, { error: 'Serials are 3 to 32 letters, digits, - or _.' }),
    )
    .min(1)
    .max(10_000),
  leftPumpType: z.enum(['Sunscreen', 'Sanitizer']).default('Sunscreen'),
  rightPumpType: z.enum(['Unspecified', 'Sunscreen', 'Sanitizer']).default('Unspecified'),
  coreVer: z.string().trim().max(32).default('1.1.2'),
});
