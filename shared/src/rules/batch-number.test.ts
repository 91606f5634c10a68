import { describe, expect, it } from 'vitest';
import { batchNumberKey, batchStateLabel, BATCH_STATUS_LABEL } from './batch-status.ts';
import { isLowBattery, isLowFluid } from './warnings.ts';

describe('batchNumberKey', () => {
  it('is one lot whatever the letter case and the spaces around it', () => {
    expect(batchNumberKey(' spf-1 ')).toBe(batchNumberKey('SPF-1'));
    expect(batchNumberKey('Spf-1')).toBe('spf-1');
  });
  it('keeps spaces inside the number and white space that is not a space (as btrim does)', () => {
    expect(batchNumberKey('SPF 1')).not.toBe(batchNumberKey('SPF1'));
    expect(batchNumberKey('\tSPF-1')).toBe('\tspf-1');
  });
});

describe('batchStateLabel', () => {
  it('names a recall first, else the status label', () => {
    expect(batchStateLabel({ status: 'IN_USE', is_recalled: true })).toBe('Recalled');
    expect(batchStateLabel({ status: 'ALMOST_EXPIRED', is_recalled: false })).toBe(BATCH_STATUS_LABEL.ALMOST_EXPIRED);
  });
});

describe('low battery and low fluid', () => {
  it('below 50 % is low, 50 % is not; no reading is not low', () => {
    expect([isLowBattery(49.9), isLowBattery(50), isLowBattery(null)]).toEqual([true, false, false]);
  });
  it('250 or less remaining is low', () => {
    expect([isLowFluid(250), isLowFluid(250.1)]).toEqual([true, false]);
  });
});
