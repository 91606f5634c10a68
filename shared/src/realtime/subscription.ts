import { z } from 'zod';
import { serialSchema } from '../schemas/device.schema.ts';

/** The answer to an overview subscription whose location is not a county id. */
export const COUNTY_ERROR = 'location is a county id.';
/** A county id: locations.id, capped at PostgreSQL's integer so a huge id is refused here rather than failing in SQL. */
const location = z
  .number({ error: COUNTY_ERROR })
  .int({ error: COUNTY_ERROR })
  .positive({ error: COUNTY_ERROR })
  .max(2_147_483_647, { error: COUNTY_ERROR });

/**
 * What a socket may subscribe to (events.ts `subscribe`): the push server parses every subscription with it,
 * and the client's Subscription type is inferred from it.
 */
export const subscriptionSchema = z.discriminatedUnion('topic', [
  z.object({ topic: z.literal('device'), serial: serialSchema }),
  z.object({ topic: z.literal('deviceCards'), serials: z.array(serialSchema).min(1).max(20_000) }),
  z.object({ topic: z.literal('simLog'), serial: serialSchema }),
  /** Without `location`: the caller's overall counts; with it (a county id): that county's counts. */
  z.object({ topic: z.literal('overview'), location: location.optional() }),
  /**
   * The map's pin deltas (issue 46): `pins:changed` for the caller's placed devices, within the caller's
   * scope as REST's. Not polled: the server sends them from the change path (check-ins and writes).
   */
  z.object({ topic: z.literal('pins') }),
]);

export type Subscription = z.infer<typeof subscriptionSchema>;
export type SubscriptionTopic = Subscription['topic'];
/** The topics a poller serves (POLL_MS); the others are pushed from the change path. */
export type PolledTopic = Exclude<SubscriptionTopic, 'pins'>;
