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
  if (batch.expireDate < today) return 'EXPIRED';
  if (daysBetween(today, batch.expireDate) <= ALMOST_EXPIRED_DAYS) return 'ALMOST_EXPIRED';
  return batch.inUse ? 'IN_USE' : 'NOT_IN_USE';
}

export const BATCH_STATUS_LABEL: Record<BatchStatus, string> = {
  IN_USE: 'In Use',
  NOT_IN_USE: 'Not In Use',
  ALMOST_EXPIRED: 'Almost Expire',
  EXPIRED: 'Expired / Recalled',
};

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
