import { describe, expect, it } from 'vitest';
import { batchesInFefoOrder, batchRefusal, pickBatches, refillBatchDefault, type StockBatch } from './batch-choice.ts';

const batch = (over: Partial<StockBatch> & { batchNo: string }): StockBatch => ({
  fluid: 'Sunscreen',
  brandIds: [1],
  expireDate: '2027-06-01',
  remainLitres: 10,
  recalled: false,
  ...over,
});
const need = (
  litres: number,
  over: Partial<{ brandId: number | null; brandName: string | null; fluid: 'Sunscreen' | 'Sanitizer' }> = {},
) => ({
  brandId: 1,
  brandName: 'Sunny',
  fluid: 'Sunscreen' as const,
  litres,
  ...over,
});

describe('pickBatches (first expiry, first out)', () => {
  it('takes the batch that expires first, never an expired or recalled one', () => {
    const stock = [
      batch({ batchNo: 'LATE', expireDate: '2027-09-01' }),
      batch({ batchNo: 'EXPIRED', expireDate: '2026-11-28' }),
      batch({ batchNo: 'RECALLED', expireDate: '2026-12-05', recalled: true }),
      batch({ batchNo: 'SOON', expireDate: '2026-12-10' }),
    ];
    const { picks, shortages } = pickBatches([need(1.2)], stock, '2026-11-29');
    expect(picks[0]).toEqual([{ batchNumber: 'SOON', litres: 1.2 }]);
    expect(shortages).toEqual([]);
  });

  it('a batch expiring on the day of use is still usable that day', () => {
    const { picks } = pickBatches([need(1)], [batch({ batchNo: 'TODAY', expireDate: '2026-11-29' })], '2026-11-29');
    expect(picks[0]![0]!.batchNumber).toBe('TODAY');
  });

  it('never takes more than a batch has left: splits over the next batch, and says what is short', () => {
    const stock = [
      batch({ batchNo: 'A', expireDate: '2027-01-01', remainLitres: 1 }),
      batch({ batchNo: 'B', expireDate: '2027-02-01', remainLitres: 0.5 }),
    ];
    const { picks, shortages } = pickBatches([need(0.8), need(1)], stock, '2026-11-29');
    expect(picks[0]).toEqual([{ batchNumber: 'A', litres: 0.8 }]);
    expect(picks[1]!.map((p) => [p.batchNumber, +p.litres.toFixed(3)])).toEqual([
      ['A', 0.2],
      ['B', 0.5],
      [null, 0.3],
    ]);
    expect(shortages).toHaveLength(1);
    expect(shortages[0]!.text).toBe('No usable sunscreen of brand Sunny: 0.3 L short');
  });

  it('matches brand and fluid type', () => {
    const stock = [batch({ batchNo: 'OTHER-BRAND', brandIds: [2] }), batch({ batchNo: 'SANITIZER', fluid: 'Sanitizer' })];
    const { picks, shortages } = pickBatches([need(1)], stock, '2026-11-29');
    expect(picks[0]).toEqual([{ batchNumber: null, litres: 1 }]);
    expect(shortages.map((s) => s.text)).toEqual(['No usable sunscreen of brand Sunny: 1 L short']);
  });
});

describe('the field app: batchRefusal and refillBatchDefault', () => {
  const day = '2026-11-29';
  it('says in words why a recalled or expired batch cannot be poured; a usable one has no refusal', () => {
    expect(batchRefusal(batch({ batchNo: 'R-1', recalled: true, expireDate: '2020-01-01' }), day)).toBe(
      'Batch R-1 is recalled: it cannot be used.',
    );
    expect(batchRefusal(batch({ batchNo: 'E-1', expireDate: '2026-11-28' }), day)).toBe(
      'Batch E-1 expired on 2026-11-28: it cannot be used.',
    );
    // Its expiry day itself is still usable (expired on the days after).
    expect(batchRefusal(batch({ batchNo: 'OK', expireDate: day }), day)).toBeNull();
  });
  it("takes the plan's pick while usable, else the brand's first to expire, else any usable of the fluid", () => {
    const stock = [
      batch({ batchNo: 'LATE', expireDate: '2027-09-01' }),
      batch({ batchNo: 'SOON', expireDate: '2027-01-01' }),
      batch({ batchNo: 'OTHER-BRAND', brandIds: [2], expireDate: '2026-12-15' }),
      batch({ batchNo: 'RECALLED', expireDate: '2026-12-01', recalled: true }),
      batch({ batchNo: 'GEL', fluid: 'Sanitizer', brandIds: [], expireDate: '2027-02-01' }),
    ];
    expect(refillBatchDefault(stock, { fluid: 'Sunscreen', brandId: 1, planned: 'LATE' }, day)).toBe('LATE');
    expect(refillBatchDefault(stock, { fluid: 'Sunscreen', brandId: 1, planned: 'RECALLED' }, day)).toBe('SOON');
    expect(refillBatchDefault(stock, { fluid: 'Sunscreen', brandId: 1 }, day)).toBe('SOON');
    expect(refillBatchDefault(stock, { fluid: 'Sunscreen', brandId: 3 }, day)).toBe('OTHER-BRAND');
    expect(refillBatchDefault(stock, { fluid: 'Sanitizer', brandId: 1 }, day)).toBe('GEL');
    expect(refillBatchDefault([stock[3]!], { fluid: 'Sunscreen', brandId: 1 }, day)).toBeNull();
    expect(batchesInFefoOrder(stock, 'Sunscreen').map((b) => b.batchNo)).toEqual(['RECALLED', 'OTHER-BRAND', 'SOON', 'LATE']);
  });
});
