import { z } from 'zod';
import type { DevicePinTuple } from '../rules/device-pin.ts';

/**
 * The pin feed's schema (GET /api/v1/devicePins). What it carries and how a pin decodes are in
 * rules/device-pin.ts, re-exported here.
 */
export * from '../rules/device-pin.ts';

export const devicePinTupleSchema = z.tuple([
  z.string(),
  z.number().nullable(),
  z.number().nullable(),
  z.number().int().nonnegative(),
  z.string(),
  z.number().int().nullable(),
  z.number().int().nullable(),
  z.number().int().nullable(),
]);
export const devicePinsSchema = z.array(devicePinTupleSchema);

// The schema and the rules' tuple type describe the same thing.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const tupleTypesAgree: Same<z.infer<typeof devicePinTupleSchema>, DevicePinTuple> = true;
void tupleTypesAgree;
