import { describe, expect, it } from 'vitest';
import { FL_OZ_TO_LITRES } from '../constants.ts';
import { displayFlOz, flOzToLitres, litresToFlOz, roundVolume } from './volume.ts';

describe('batch volume conversions (spec section 9: 1 fl.oz. = 0.0295735 l)', () => {
  it('converts fl.oz. to litres with the spec constant', () => {
    expect(FL_OZ_TO_LITRES).toBe(0.0295735);
    expect(flOzToLitres(338)).toBeCloseTo(9.995843, 6);
    expect(flOzToLitres(1)).toBe(0.0295735);
    expect(flOzToLitres(0)).toBe(0);
  });

  it('reads back exactly what was entered, at 2 decimals', () => {
    for (const flOz of [0.01, 1, 12.5, 169, 338, 1234.56, 99_999.99]) {
      expect(displayFlOz(flOzToLitres(flOz))).toBe(flOz);
    }
    expect(litresToFlOz(flOzToLitres(338))).toBeCloseTo(338, 9);
  });

  it('rounds half away from zero', () => {
    expect(roundVolume(1.005, 2)).toBe(1.01);
    expect(roundVolume(2.345, 2)).toBe(2.35);
    expect(roundVolume(-2.345, 2)).toBe(-2.35);
    expect(roundVolume(185.9, 0)).toBe(186);
    expect(roundVolume(9.9958430000001, 6)).toBe(9.995843);
  });
});
