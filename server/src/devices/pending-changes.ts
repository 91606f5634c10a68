import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { devices, pendingChanges, pumpSettings, rentals } from '../db/schema.ts';

type Tx = Pick<Db, 'insert' | 'update' | 'select' | 'delete'>;
export type PendingKind = 'activation' | 'rental' | 'other';

/**
 * What the portal showed before a request, so cancelling it restores exactly that: device columns,
 * pump settings, and the rental plan (null: there was none).
 */
export type RestorePoint = {
  devices?: Partial<typeof devices.$inferInsert>;
  pumpSettings?: Partial<typeof pumpSettings.$inferInsert>;
  rental?: Omit<typeof rentals.$inferSelect, 'updatedAt'> | null;
};

/** How long a change waits for the device before it is shown as expired rather than applied late. */
export const PENDING_TTL_MS = 7 * 86_400_000;

/**
 * Records a setting a person asked for that the device has not acknowledged yet (the pending flags of
 * spec section 4). A newer request for the same setting replaces the older one, so the device only ever
 * receives the latest; it keeps the older one's restore point, which is what the device last confirmed.
 */
export async function requestChange(
  tx: Tx,
  args: {
    deviceId: number;
    kind: PendingKind;
    setting: string;
    desired: unknown;
    previous?: RestorePoint;
    requestedBy: number | null;
    nextWakeup: Date | null;
    now: Date;
  },
): Promise<void> {
  const replaced = await tx
    .update(pendingChanges)
    .set({ status: 'replaced', resolvedAt: args.now })
    .where(
      and(
        eq(pendingChanges.deviceId, args.deviceId),
        eq(pendingChanges.setting, args.setting),
        eq(pendingChanges.status, 'pending'),
      ),
    )
    .returning({ previous: pendingChanges.previous });
  await tx.insert(pendingChanges).values({
    deviceId: args.deviceId,
    kind: args.kind,
    setting: args.setting,
    desired: args.desired,
    previous: (replaced[0]?.previous as RestorePoint | null | undefined) ?? args.previous ?? null,
    requestedBy: args.requestedBy,
    requestedAt: args.now,
    expectedAt: args.nextWakeup,
    expiresAt: new Date(args.now.getTime() + PENDING_TTL_MS),
  });
}

/** Withdraws a pending change before the device takes it and restores what the portal showed before. */
export async function cancelChange(tx: Tx, change: typeof pendingChanges.$inferSelect, now: Date): Promise<void> {
  const restore = (change.previous ?? {}) as RestorePoint;
  if (restore.devices && Object.keys(restore.devices).length)
    await tx.update(devices).set(restore.devices).where(eq(devices.id, change.deviceId));
  if (restore.pumpSettings && Object.keys(restore.pumpSettings).length) {
    await tx.update(pumpSettings).set(restore.pumpSettings).where(eq(pumpSettings.deviceId, change.deviceId));
  }
  if (restore.rental !== undefined) {
    await tx.delete(rentals).where(eq(rentals.deviceId, change.deviceId));
    if (restore.rental) await tx.insert(rentals).values({ ...restore.rental, deviceId: change.deviceId });
  }
  await tx.update(pendingChanges).set({ status: 'cancelled', resolvedAt: now }).where(eq(pendingChanges.id, change.id));
}
