import { daysBetween } from './telemetry.ts';

/**
 * Batch status of spec section 4, one rule for client and server:
 * EXPIRED once the expiry date has passed; ALMOST_EXPIRED within ALMOST_EXPIRED_DAYS of it;
 * otherwise IN_USE when a device pump is fed by it, else NOT_IN_USE. A recall is a separate flag
 * (is_recalled) that the screens show red whatever the status.
 */
export const BATCH_STATUSES = ['IN_USE', 'NOT_IN_USE', 'ALMOST_EXPIRED', 'EXPIRED'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

/** The spec does not say how close to expiry 'Almost Expire' starts: 30 days, a month of stock. */
export const ALMOST_EXPIRED_DAYS = 30;

/** Dates as 'YYYY-MM-DD'; `today` in the same form (the viewer's or the site's calendar day). */
export function batchStatus(batch: { expireDate: string; inUse: boolean }, today: string): BatchStatus {
  if (isBatchExpired(batch.expireDate, today)) return 'EXPIRED';
  if (daysBetween(today, batch.expireDate) <= ALMOST_EXPIRED_DAYS) return 'ALMOST_EXPIRED';
  return batch.inUse ? 'IN_USE' : 'NOT_IN_USE';
}

export const BATCH_STATUS_LABEL: Record<BatchStatus, string> = {
  IN_USE: 'In Use',
  NOT_IN_USE: 'Not In Use',
  ALMOST_EXPIRED: 'Almost Expire',
  EXPIRED: 'Expired / Recalled',
};

/**
 * A batch's state in words where the state is named on its own (the /status report, the maintenance list):
 * a recall first ('Recalled'), else its status's label. The batch card keeps its status colours and reads
 * 'Expired / Recalled' for a recalled batch (spec section 4: client/src/entities/batch).
 */
export const BATCH_RECALLED_LABEL = 'Recalled';
export function batchStateLabel(batch: { status: BatchStatus; is_recalled: boolean }): string {
  return batch.is_recalled ? BATCH_RECALLED_LABEL : BATCH_STATUS_LABEL[batch.status];
}

/**
 * The one batch-number equality: one lot whatever its letter case and the spaces around it (' spf-1 ' is
 * 'SPF-1'; 'SPF 1' is another number). In SQL the same key is `lower(btrim(batch_no))` (batchNumberKeyOf in
 * server/src/db/schema.ts), and the unique index batches_batch_no_key is on it (migration 0019).
 * btrim strips spaces only, so this does too (not tabs or line breaks, which no form lets through).
 */
export function batchNumberKey(batchNo: string): string {
  return batchNo.replace(/^ +| +$/g, '').toLowerCase();
}

/**
 * The one expiry test (batch status, the BATCH_EXPIRED warning, the batches a form may choose): a batch
 * is expired on the days after its expiry date. `expireDate` may come from the database as a date or a
 * timestamp text ('2026-11-22' or '2026-11-22 00:00:00'); only its calendar day counts.
 */
export function isBatchExpired(expireDate: string, today: string): boolean {
  return expireDate.slice(0, 10) < today;
}

/**
 * The calendar day batch expiry is judged on: the UTC day of `at`. One day for the batch list, the batch
 * forms, every device's BATCH_EXPIRED (recomputed or at a check-in) and the fleet-health recompute, so a
 * batch's status and the warnings of the devices it feeds never disagree.
 */
export const batchDayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** What the warning rules need of a batch feeding a pump; null when no batch feeds it. */
export type BatchWarningState = { expired: boolean; recalled: boolean };

/** A stored batch (its expire_date and is_recalled columns, null when none feeds the pump) as the warning rules read it. */
export function batchWarningState(
  expireDate: string | null,
  isRecalled: boolean | null,
  today: string,
): BatchWarningState | null {
  return expireDate == null ? null : { expired: isBatchExpired(String(expireDate), today), recalled: !!isRecalled };
}
