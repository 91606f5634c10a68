/**
 * The device answer's types, inferred from its schemas (schemas/device-answer.schema.ts): type-only imports,
 * so a module that needs only the types (events.ts) loads no zod.
 */
import type { z } from 'zod';
import type { deviceAnswerSchema, deviceListItemSchema, pendingFlagsSchema } from '../schemas/device-answer.schema.ts';

/** What waits for the device (spec section 4): activation, rental, or any other setting not yet acknowledged. */
export type PendingFlags = z.infer<typeof pendingFlagsSchema>;
export type DeviceListItem = z.infer<typeof deviceListItemSchema>;
export type DeviceAnswer = z.infer<typeof deviceAnswerSchema>;

/** The device fields realtime patches carry: the list answer. */
export type DeviceListItemShape = DeviceListItem;
