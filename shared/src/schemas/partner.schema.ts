import { z } from 'zod';
import { serialSchema } from './device.schema.ts';

/**
 * A user as GET /api/v1/allUser answers it (spec section 3, Client/user): the account, its company and its
 * exclusive devices (exclusive_device_serials, and exclusive_devices as device ids). A market-partner
 * user (user_type market-partner) sees exactly those devices; for other users both lists are empty.
 */
export const partnerUserSchema = z.object({
  id: z.number(),
  name: z.string(),
  company: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.string(),
  user_type: z.string(),
  type: z.string(),
  activated: z.boolean(),
  profile_url: z.string().nullable(),
  is_enable_notification_email: z.boolean(),
  is_enable_notification_phone: z.boolean(),
  is_enable_notification_weekly_report: z.boolean(),
  is_enable_notification_daily_dispensation: z.boolean(),
  brands: z.array(z.object({ id: z.number(), name: z.string() })),
  exclusive_device_serials: z.array(z.string()),
  exclusive_devices: z.array(z.number()),
});
export type PartnerUser = z.infer<typeof partnerUserSchema>;

/** At most this many serials in one assign or remove call (a whole county's devices fit). */
export const EXCLUSIVE_DEVICES_MAX = 2000;

/**
 * POST /api/v1/addExclusiveDevices/{email} and /api/v1/removeExclusiveDevices/{email}: the serials to make
 * exclusive to that market-partner user, or to take from it. Serials are kept as sent (unique).
 */
export const exclusiveDevicesSchema = z.object({
  deviceSerials: z
    .array(serialSchema, { error: 'Must be a list of serial numbers.' })
    .min(1, { error: 'Choose at least one device.' })
    .max(EXCLUSIVE_DEVICES_MAX, { error: `At most ${EXCLUSIVE_DEVICES_MAX} devices at a time.` })
    .transform((list) => [...new Set(list)]),
});
export type ExclusiveDevicesInput = z.infer<typeof exclusiveDevicesSchema>;

/** Case-insensitive company key, the way the spec groups market-partner companies. */
export const companyKey = (company: string) => company.trim().toLowerCase();

/** The field message of an exclusive-device call naming a user who is not a market partner. */
export const NOT_A_PARTNER = 'Only market-partner users have exclusive devices.';
