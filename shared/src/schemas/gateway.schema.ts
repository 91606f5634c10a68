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

/** The configuration a device should run with, answered to every check-in. */
export type DeviceConfig = {
  is_pause: boolean;
  is_activated: boolean;
  is_enabled_maintenance: boolean;
  is_enabled_vandalism: boolean;
  rental: {
    start_date: string;
    end_date: string;
    start_time: string | null;
    end_time: string | null;
    pump_2_start_time: string | null;
    pump_2_end_time: string | null;
  } | null;
  pump: {
    steps_per_second: number;
    steps_per_ml: number;
    ml_per_shot: number;
    steps_per_second2: number;
    steps_per_ml2: number;
    ml_per_shot2: number;
    vandalism_max_shots: number;
    vandalism_interval: number;
  };
  /** Minutes the device sleeps between check-ins, and stays awake at each wake-up. */
  poweroff_minutes: number;
  wakeup_minutes: number;
  time_zone: string | null;
};

export type CheckinAnswer = {
  serverTime: string;
  accepted: { dispenses: number; duplicates: number; levels: number; batteries: number; dataUsage: number; sms: number };
  config: DeviceConfig;
  /** Changes to apply now; acknowledge them in `applied` of the next check-in. */
  pending: { id: number; setting: string; desired: unknown }[];
  /** When the portal expects the next check-in (it shows 'Update after {time}'). */
  nextCheckinBy: string;
};

/** POST /api/v1/deviceSecret/{serial}: a distributor rotates a device's secret (shown once). */
export type DeviceSecretAnswer = { serial: string; secret: string };

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
