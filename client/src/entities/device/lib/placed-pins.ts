import type { DevicePin } from '@fleet/shared';
import { pinTypeOf, type PinType } from './pin-status';

type Pins = ReadonlyMap<string, DevicePin>;
type PinTypeCounts = Record<PinType, number>;

/**
 * The pins that have a place on the map, and how many of each type (the Active Pin panel's counts), kept
 * beside the record they were worked out from. The pin feed works them out a slice a task as it is parsed
 * (placedTally, in fetchDevicePinsFx), so the store update that hands 100,000 pins to the views does not walk
 * them again: the two walks were 111 and 82 ms of that one task under a 4x CPU slowdown
 * (tests/perf/map-trace.ts --devices 100000). A record made by a patch or a delta is walked once, when a
 * view first asks for it. Kept in WeakMaps: a record no store holds any more takes its lists with it.
 */
const placedByRecord = new WeakMap<Pins, readonly DevicePin[]>();
const countsByPlaced = new WeakMap<readonly DevicePin[], PinTypeCounts>();

const isPlaced = (pin: DevicePin) => pin.location !== null && pin.location !== undefined;

export function placedPinsOf(pins: Pins): readonly DevicePin[] {
  let placed = placedByRecord.get(pins);
  if (!placed) {
    const tally = placedTally();
    for (const pin of pins.values()) tally.add(pin);
    placed = tally.keep(pins);
  }
  return placed;
}

export function pinTypeCountsOf(placed: readonly DevicePin[]): PinTypeCounts {
  let counts = countsByPlaced.get(placed);
  if (!counts) {
    counts = { regular: 0, pause: 0, warning: 0 };
    for (const pin of placed) counts[pinTypeOf(pin)] += 1;
    countsByPlaced.set(placed, counts);
  }
  return counts;
}

/** The placed pins and their counts gathered pin by pin, then kept for the record the pins went into. */
export function placedTally() {
  const placed: DevicePin[] = [];
  const counts: PinTypeCounts = { regular: 0, pause: 0, warning: 0 };
  return {
    add(pin: DevicePin) {
      if (!isPlaced(pin)) return;
      placed.push(pin);
      counts[pinTypeOf(pin)] += 1;
    },
    keep(pins: Pins): readonly DevicePin[] {
      placedByRecord.set(pins, placed);
      countsByPlaced.set(placed, counts);
      return placed;
    },
  };
}
