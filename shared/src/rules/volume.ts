import { FL_OZ_TO_LITRES, VOLUME_DIVISOR } from '../constants.ts';

/**
 * Batch volumes (spec sections 3 and 9): people enter and read fl.oz., the database keeps litres.
 * One pair of conversions for server and client, so a value entered as 338 fl.oz. reads back as 338.
 */
export function flOzToLitres(flOz: number): number {
  return flOz * FL_OZ_TO_LITRES;
}

export function litresToFlOz(litres: number): number {
  return litres / FL_OZ_TO_LITRES;
}

/** Rounds half away from zero to `decimals` places, without the 1.005 -> 1.00 float surprise. */
export function roundVolume(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.sign(value) * (Math.round(Math.abs(value) * factor + Number.EPSILON * factor) / factor);
}

/** What a batch card shows (Remain / Total Volume): fl.oz. with 2 decimals. */
export function displayFlOz(litres: number): number {
  return roundVolume(litresToFlOz(litres), 2);
}

/** Dispensed fluid (pump_events.volume_ml, millilitres) in fl.oz.: the volume divisor 1000 gives litres. */
export function mlToFlOz(ml: number): number {
  return litresToFlOz(ml / VOLUME_DIVISOR);
}

/**
 * Reservoirs and dispensed fluid are in millilitres, batches in litres (the volume divisor 1000): the one
 * pair of conversions the service day's refills and pick lists use.
 */
export const mlToLitres = (ml: number): number => ml / VOLUME_DIVISOR;
export const litresToMl = (litres: number): number => litres * VOLUME_DIVISOR;
