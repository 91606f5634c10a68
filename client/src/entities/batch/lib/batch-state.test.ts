import { describe, expect, it } from 'vitest';
import { batchLabel, batchListOrder, batchTone, formatDay, formatFlOz } from './batch-state';

describe('batch state on a card (spec section 4)', () => {
  it('takes the status colour and label, and a recalled batch is red and Expired / Recalled whatever its status', () => {
    expect([batchTone({ status: 'IN_USE', is_recalled: false }), batchLabel({ status: 'IN_USE', is_recalled: false })]).toEqual([
      'in-use',
      'In Use',
    ]);
    expect([
      batchTone({ status: 'NOT_IN_USE', is_recalled: false }),
      batchLabel({ status: 'NOT_IN_USE', is_recalled: false }),
    ]).toEqual(['not-in-use', 'Not In Use']);
    expect([
      batchTone({ status: 'ALMOST_EXPIRED', is_recalled: false }),
      batchLabel({ status: 'ALMOST_EXPIRED', is_recalled: false }),
    ]).toEqual(['almost-expired', 'Almost Expire']);
    expect([batchTone({ status: 'EXPIRED', is_recalled: false }), batchLabel({ status: 'EXPIRED', is_recalled: false })]).toEqual(
      ['expired', 'Expired / Recalled'],
    );
    expect([batchTone({ status: 'IN_USE', is_recalled: true }), batchLabel({ status: 'IN_USE', is_recalled: true })]).toEqual([
      'expired',
      'Expired / Recalled',
    ]);
  });

  it('puts expired batches last, then orders by batch number with numbers read as numbers', () => {
    const list = [
      { id: 1, batch_no: 'SPF-10', status: 'IN_USE' as const },
      { id: 2, batch_no: 'SPF-2', status: 'EXPIRED' as const },
      { id: 3, batch_no: 'SPF-2', status: 'NOT_IN_USE' as const },
      { id: 4, batch_no: 'spf-1', status: 'ALMOST_EXPIRED' as const },
    ];
    expect(batchListOrder(list).map((b) => b.id)).toEqual([4, 3, 1, 2]);
  });

  it('writes days and volumes as people read them', () => {
    expect(formatDay('2027-01-05')).toBe('5 Jan 2027');
    expect(formatDay('soon')).toBe('soon');
    expect(formatFlOz(1280.456)).toBe('1,280.46 fl.oz.');
  });
});
