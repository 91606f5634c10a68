import { BATCH_STATUS_LABEL, type BatchAnswer, type BatchStatus } from '@fleet/shared';
import { formatNumber } from '../../../shared/lib';

/**
 * How a batch reads on its card (spec section 4): its status's colour and label, except that a recalled
 * batch is red and reads 'Expired / Recalled' whatever its status.
 */
export type BatchTone = 'in-use' | 'not-in-use' | 'almost-expired' | 'expired';
const TONE: Record<BatchStatus, BatchTone> = {
  IN_USE: 'in-use',
  NOT_IN_USE: 'not-in-use',
  ALMOST_EXPIRED: 'almost-expired',
  EXPIRED: 'expired',
};

export function batchTone(batch: Pick<BatchAnswer, 'status' | 'is_recalled'>): BatchTone {
  return batch.is_recalled ? 'expired' : TONE[batch.status];
}

export function batchLabel(batch: Pick<BatchAnswer, 'status' | 'is_recalled'>): string {
  return batch.is_recalled ? BATCH_STATUS_LABEL.EXPIRED : BATCH_STATUS_LABEL[batch.status];
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Batch List order (spec section 2): expired batches last, then by batch number (SPF-2 before SPF-10). */
export function batchListOrder<T extends Pick<BatchAnswer, 'status' | 'batch_no' | 'id'>>(list: readonly T[]): T[] {
  return [...list].sort(
    (a, b) =>
      Number(a.status === 'EXPIRED') - Number(b.status === 'EXPIRED') || collator.compare(a.batch_no, b.batch_no) || a.id - b.id,
  );
}

/** A 'YYYY-MM-DD' day as people read it: '5 Jan 2027' (the day itself, never shifted by a time zone). */
export function formatDay(day: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!m) return day;
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${Number(m[3])} ${months[Number(m[2]) - 1] ?? m[2]} ${m[1]}`;
}

/** A volume in fl.oz. with at most 2 decimals and thousands separators. */
export const formatFlOz = (value: number) => `${formatNumber(value, 2)} fl.oz.`;
