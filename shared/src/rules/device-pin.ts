/**
 * The compact pin feed (GET /api/v1/devicePins): what the map needs to draw the whole fleet and nothing
 * more. The full device answer (GET /api/v1/device, about 1.1 KB a device) stays for the views that show
 * it; a pin is about 60 bytes before gzip.
 *
 * Each pin is a tuple, not an object, so 10,000 pins do not repeat eight key names 10,000 times:
 *   [serial, lat, lng, bits, label, number, group, brand]
 * lat/lng are null for a device placed without a position; number, group (location_group, the site) and
 * brand are null when unset. `bits` packs the flags below; decode with `decodeDevicePin`.
 * Pins are ordered by device id (stable across calls). Live changes arrive on the existing push topics
 * (`device:changed` patches carry the same is_* fields), so the feed is loaded once per sign-in.
 *
 * No zod here: the browser decodes the feed at sign-in with these, and its first page load then builds no
 * schema and loads no zod at all (the feed's schema is schemas/device-pin.schema.ts, which re-exports this
 * module; the same split as rules/telemetry.ts).
 */
export const PIN_BITS = {
  is_pause: 1,
  is_warning: 2,
  is_online: 4,
  is_registration: 8,
  is_activated: 16,
  is_batch_warning: 32,
  is_maintenance: 64,
} as const;
export type PinFlag = keyof typeof PIN_BITS;

/** One pin as the feed sends it: [serial, lat, lng, bits, label, number, group, brand]. */
export type DevicePinTuple = [string, number | null, number | null, number, string, number | null, number | null, number | null];

export type DevicePin = {
  serial: string;
  location: { lat: number; lng: number } | null;
  label: string;
  number: number | null;
  location_group: number | null;
  brand: number | null;
} & Record<PinFlag, boolean>;

/** Packs a device's flags the way the feed does (the server builds the same number in SQL). */
export function pinBits(flags: Partial<Record<PinFlag, boolean | null | undefined>>): number {
  let bits = 0;
  for (const [flag, bit] of Object.entries(PIN_BITS) as [PinFlag, number][]) if (flags[flag]) bits |= bit;
  return bits;
}

/** A pin tuple as named fields, with the same names the device answer uses. */
export function decodeDevicePin([serial, lat, lng, bits, label, number, group, brand]: DevicePinTuple): DevicePin {
  // Spelled out, flag by flag: the browser decodes the whole fleet at sign-in, and building each pin's
  // flags from PIN_BITS's entries (seven small arrays and an object from them, then spread) was 46 ms of
  // a 158 ms task for 10,000 pins under Lighthouse's 4x CPU slowdown (tests/perf/map-trace.ts). The
  // unit test checks every flag against PIN_BITS, so the two cannot drift apart.
  return {
    serial,
    location: lat == null || lng == null ? null : { lat, lng },
    label,
    number,
    location_group: group,
    brand,
    is_pause: (bits & PIN_BITS.is_pause) !== 0,
    is_warning: (bits & PIN_BITS.is_warning) !== 0,
    is_online: (bits & PIN_BITS.is_online) !== 0,
    is_registration: (bits & PIN_BITS.is_registration) !== 0,
    is_activated: (bits & PIN_BITS.is_activated) !== 0,
    is_batch_warning: (bits & PIN_BITS.is_batch_warning) !== 0,
    is_maintenance: (bits & PIN_BITS.is_maintenance) !== 0,
  };
}
