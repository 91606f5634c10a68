import type { BatchAnswer } from '@fleet/shared';
import { batchListOrder } from '../../../entities/batch';

/** The Brand filter: a batch shows when a device of that brand is fed by it (null: every batch). */
export function batchesOfBrand(batches: readonly BatchAnswer[], brandId: number | null): BatchAnswer[] {
  const list = brandId === null ? batches : batches.filter((b) => b.brand_lists.some((brand) => brand.id === brandId));
  return batchListOrder(list);
}
