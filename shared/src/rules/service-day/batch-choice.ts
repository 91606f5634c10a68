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

/**
 * Why a batch cannot be poured on `useDate`, in words (the field app shows it beside the batch it will not
 * let the technician choose); null when it can. Recalled first: a recall outranks any date.
 */
export function batchRefusal(b: Pick<StockBatch, 'batchNo' | 'expireDate' | 'recalled'>, useDate: string): string | null {
  if (b.recalled) return `Batch ${b.batchNo} is recalled: it cannot be used.`;
  if (isBatchExpired(b.expireDate, useDate))
    return `Batch ${b.batchNo} expired on ${b.expireDate.slice(0, 10)}: it cannot be used.`;
  return null;
}

/**
 * The batch a refill defaults to on the phone: the plan's pick for that pump (the pick list's first expiry
 * first out, made in route order) while it is still usable, else the first to expire among the usable
 * batches of the device's brand and fluid, else among any usable batch of that fluid (a batch not yet fed
 * to any device has no brand). Null when no batch is usable.
 */
export function refillBatchDefault(
  stock: readonly StockBatch[],
  need: { fluid: Fluid; brandId: number | null; planned?: string | null },
  useDate: string,
): string | null {
  const usable = stock.filter((b) => b.fluid === need.fluid && isUsableBatch(b, useDate)).sort(fefo);
  if (need.planned) {
    const planned = usable.find((b) => b.batchNo === need.planned);
    if (planned) return planned.batchNo;
  }
  const ofBrand = need.brandId === null ? undefined : usable.find((b) => b.brandIds.includes(need.brandId!));
  return (ofBrand ?? usable[0])?.batchNo ?? null;
}

/** A fluid's batches in the order the phone lists them: first expiry first (the order a pick takes them). */
export const batchesInFefoOrder = (stock: readonly StockBatch[], fluid: Fluid) =>
  stock.filter((b) => b.fluid === fluid).sort(fefo);
