import { isBatchExpired } from '../batch-status.ts';
import { roundVolume } from '../volume.ts';
import type { Fluid } from './due.ts';

/**
 * Which batch each refill comes from: first-expiry-first-out among the usable batches of the device's
 * brand and fluid type. Usable: not recalled, not expired on the day of the visit, with fluid left. A
 * pick never takes more than a batch has left (a refill larger than the batch is split over the next
 * batches in expiry order); what no usable batch covers is a shortage, said per brand and fluid.
 *
 * A batch's brands are the brands of the devices its fluid has fed (batches carry no brand of their own in
 * the spec's data): fluid bought for a brand is poured into that brand's dispensers.
 */
export type StockBatch = {
  batchNo: string;
  fluid: Fluid;
  brandIds: readonly number[];
  expireDate: string;
  remainLitres: number;
  recalled: boolean;
};

export type FluidNeed = { brandId: number | null; brandName: string | null; fluid: Fluid; litres: number };
export type BatchPick = { batchNumber: string | null; litres: number };
export type Shortage = { brandId: number | null; brand: string; fluid: Fluid; litres: number; text: string };

export function isUsableBatch(b: StockBatch, useDate: string): boolean {
  return !b.recalled && !isBatchExpired(b.expireDate, useDate) && b.remainLitres > 0;
}

/** First expiry first; equal expiry by batch number, so the choice is the same every time. */
const fefo = (a: StockBatch, b: StockBatch) =>
  a.expireDate.slice(0, 10).localeCompare(b.expireDate.slice(0, 10)) || a.batchNo.localeCompare(b.batchNo);

/**
 * Picks for each need in the order given (the plan's route order: the first stop takes the first
 * expiring fluid). Answers the picks per need (a null batch number for litres no batch covers) and the
 * shortages per brand and fluid.
 */
export function pickBatches(
  needs: readonly FluidNeed[],
  stock: readonly StockBatch[],
  useDate: string,
): { picks: BatchPick[][]; shortages: Shortage[] } {
  const left = new Map(stock.map((b) => [b.batchNo, b.remainLitres]));
  const sorted = stock.filter((b) => isUsableBatch(b, useDate)).sort(fefo);
  const short = new Map<string, Shortage>();
  const picks = needs.map((need) => {
    let want = need.litres;
    const out: BatchPick[] = [];
    for (const b of sorted) {
      if (want <= 1e-9) break;
      if (b.fluid !== need.fluid || need.brandId === null || !b.brandIds.includes(need.brandId)) continue;
      const has = left.get(b.batchNo)!;
      if (has <= 1e-9) continue;
      const take = Math.min(has, want);
      left.set(b.batchNo, has - take);
      want -= take;
      out.push({ batchNumber: b.batchNo, litres: take });
    }
    if (want > 1e-9) {
      out.push({ batchNumber: null, litres: want });
      const key = `${need.brandId}:${need.fluid}`;
      const brand = need.brandName ?? 'no brand';
      const s = short.get(key) ?? { brandId: need.brandId, brand, fluid: need.fluid, litres: 0, text: '' };
      s.litres += want;
      s.text = `No usable ${need.fluid.toLowerCase()} of ${need.brandName ? `brand ${need.brandName}` : 'a device with no brand'}: ${roundVolume(s.litres, 2)} L short`;
      short.set(key, s);
    }
    return out;
  });
  return {
    picks,
    shortages: [...short.values()].sort((a, b) => a.brand.localeCompare(b.brand) || a.fluid.localeCompare(b.fluid)),
  };
}
