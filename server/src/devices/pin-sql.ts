import { sql } from 'drizzle-orm';
import { PIN_BITS } from '@fleet/shared';

/**
 * A device's pin bits packed in SQL, written from shared's PIN_BITS (each flag is the devices column of the
 * same name), so the database and the browser's decodeDevicePin read one definition. Only the constant's own
 * names and numbers go into the text, never input.
 */
const PIN_BITS_SQL = sql.raw(
  Object.entries(PIN_BITS)
    .map(([flag, bit]) => `(devices.${flag}::int * ${bit})`)
    .join(' | '),
);

/**
 * One device's pin tuple (shared DevicePinTuple) as a JSON array: the deltas (pins:changed). The feed (devicePins)
 * reads the same tuples kept in device_pins by the trigger site_aggregates_trg (server/src/db/functions), which
 * spells these bits out; tests/integration/kept-aggregates.test.ts holds every kept tuple equal to this one.
 */
export const PIN_TUPLE_SQL = sql`json_build_array(devices.serial, devices.lat, devices.lng, ${PIN_BITS_SQL},
  devices.label, devices.number, devices.group_id, devices.brand_id)`;
