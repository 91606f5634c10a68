import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { pendingChanges } from '../db/schema.ts';

type Tx = Pick<Db, 'insert' | 'update'>;
export type PendingKind = 'activation' | 'rental' | 'other';

/** How long a change waits for the device before it is shown as expired rather than applied late. */
export const PENDING_TTL_MS = 7 * 86_400_000;

/**
 * Records a setting a person asked for that the device has not acknowledged yet (the pending flags of
 * spec section 4). A newer request for the same setting replaces the older one, so the device only
 * ever receives the latest. The device is expected to pick it up at its next wake-up.
 */
export async function requestChange(
  tx: Tx,
  args: { deviceId: number; kind: PendingKind; setting: string; desired: unknown; requestedBy: number; nextWakeup: Date | null; now: Date },
): Promise<void> {
  await tx
    .update(pendingChanges)
    .set({ status: 'replaced', resolvedAt: args.now })
    .where(and(eq(pendingChanges.deviceId, args.deviceId), eq(pendingChanges.setting, args.setting), eq(pendingChanges.status, 'pending')));
  await tx.insert(pendingChanges).values({
    deviceId: args.deviceId,
    kind: args.kind,
    setting: args.setting,
    desired: args.desired,
    requestedBy: args.requestedBy,
    requestedAt: args.now,
    expectedAt: args.nextWakeup,
    expiresAt: new Date(args.now.getTime() + PENDING_TTL_MS),
  });
}
