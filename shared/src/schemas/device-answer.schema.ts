import { z } from 'zod';
import { PUMP_TYPES } from '../constants.ts';

/**
 * The device answer of spec section 3 (plus what the device panel shows): the one definition that the
 * device API, the realtime patches and the client share; the TypeScript types are inferred from it
 * (realtime/device-shape.ts). The database builds the list answer (server/src/db/functions/device_list_json.sql);
 * tests/integration/house-rules.test.ts parses the API's answers with these schemas.
 *
 * A device in the list: the fields of spec section 3, market_partners for the card chips and last_seen_at
 * (the last check-in). The single-device answer adds what the device panel shows: the site time zone, the
 * brand image, batch2Id and every pending change with who asked for it and when the device should take it.
 */

/** What waits for the device (spec section 4): activation, rental, or any other setting not yet acknowledged. */
export const pendingFlagsSchema = z.object({ activation_changed: z.boolean(), rental_changed: z.boolean(), others: z.boolean() });

const rentalSchema = z.object({
  start_date: z.string(),
  end_date: z.string(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  pump_2_start_time: z.string().nullable(),
  pump_2_end_time: z.string().nullable(),
});

export const deviceListItemSchema = z.object({
  id: z.number(),
  serial: z.string(),
  label: z.string(),
  number: z.number().nullable(),
  address: z.string(),
  location: z.object({ lat: z.number(), lng: z.number() }).nullable(),
  location_id: z.number().nullable(),
  location_group: z.number(),
  brand: z.number().nullable(),
  brand_name: z.string().nullable(),
  location_event_type: z.string(),
  left_pump_type: z.string(),
  right_pump_type: z.string(),
  batch: z.number().nullable(),
  batchNumber: z.string().nullable(),
  batch2Number: z.string().nullable(),
  batch2: z.boolean(),
  level_sensor1: z.boolean(),
  level_sensor2: z.boolean(),
  volume_remain: z.number(),
  volume_remain2: z.number(),
  is_pause: z.boolean(),
  is_activated: z.boolean(),
  active: z.string().nullable(),
  is_online: z.boolean(),
  is_registration: z.boolean(),
  is_warning: z.boolean(),
  is_batch_warning: z.boolean(),
  is_maintenance: z.boolean(),
  warning_lists: z.array(z.string()),
  is_enabled_vandalism: z.boolean(),
  is_enabled_maintenance: z.boolean(),
  pending_flags: pendingFlagsSchema,
  poweroff_time: z.string().nullable(),
  wakeup1_time: z.string().nullable(),
  next_wakeup_time: z.string().nullable(),
  last_seen_at: z.string().nullable(),
  core_ver: z.string().nullable(),
  signal_quality: z.number().nullable(),
  battery_warning: z.boolean(),
  battery_volt: z.number().nullable(),
  battery_percent: z.number().nullable(),
  rental: rentalSchema.nullable(),
  market_partners: z.array(z.object({ id: z.number(), company: z.string() })),
  simcardPhoneNumber: z.string().nullable(),
  imei: z.string().nullable(),
  simSerialNumber: z.string().nullable(),
});

export const deviceAnswerSchema = deviceListItemSchema.extend({
  timezone_id: z.string().nullable(),
  brand_image_url: z.string().nullable(),
  batch2Id: z.number().nullable(),
  pending_changes: z.array(
    z.object({
      id: z.number(),
      kind: z.string(),
      setting: z.string(),
      requested_at: z.string(),
      requested_by: z.number().nullable(),
      expected_at: z.string().nullable(),
      expires_at: z.string().nullable(),
    }),
  ),
});

/** One entry of GET /api/v1/avaliableDevice: a serial provisioned but not placed (the Add Device list). */
export const availableDeviceSchema = z.object({
  serial: z.string(),
  left_pump_type: z.enum(PUMP_TYPES),
  right_pump_type: z.enum(PUMP_TYPES),
  core_ver: z.string().nullable(),
});
export type AvailableDevice = z.infer<typeof availableDeviceSchema>;
