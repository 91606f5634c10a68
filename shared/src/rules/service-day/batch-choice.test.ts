import { describe, expect, it } from 'vitest';
import { pickBatches, type StockBatch } from './batch-choice.ts';

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
