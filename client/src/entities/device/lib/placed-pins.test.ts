import { decodeDevicePin, PIN_BITS, type DevicePinTuple } from '@fleet/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchDevicePinsFx } from '../model';
import { pinTypeCountsOf, placedPinsOf, placedTally } from './placed-pins';

const tuple = (serial: string, placed: boolean, bits = 0): DevicePinTuple => [
  serial,
  placed ? 30.1 : null,
  placed ? -90.2 : null,
  bits,
  `Pump ${serial}`,
  null,
  7,
  null,
];
const recordOf = (tuples: DevicePinTuple[]) => new Map(tuples.map((t) => [t[0], decodeDevicePin(t)]));

afterEach(() => vi.unstubAllGlobals());

describe('placed pins and their counts, kept beside their record', () => {
  const tuples = [
    tuple('A1', true),
    tuple('B2', false, PIN_BITS.is_pause),
    tuple('C3', true, PIN_BITS.is_pause),
    tuple('D4', true, PIN_BITS.is_warning),
    tuple('E5', true, PIN_BITS.is_pause | PIN_BITS.is_warning),
  ];

  it('answers the pins with a place, in the record order, and their counts by type (pause before warning)', () => {
    const pins = recordOf(tuples);
    const placed = placedPinsOf(pins);
    expect(placed.map((pin) => pin.serial)).toEqual(['A1', 'C3', 'D4', 'E5']);
    expect(pinTypeCountsOf(placed)).toEqual({ regular: 1, pause: 2, warning: 1 });
    // Worked out once a record: the same list again, and so the same counts.
    expect(placedPinsOf(pins)).toBe(placed);
    expect(pinTypeCountsOf(placed)).toBe(pinTypeCountsOf(placedPinsOf(pins)));
  });

  it('takes what a tally gathered pin by pin for the record it kept them for, without walking the record', () => {
    const pins = recordOf(tuples);
    const tally = placedTally();
    for (const pin of pins.values()) tally.add(pin);
    const kept = tally.keep(pins);
    const values = vi.spyOn(pins, 'values');
    expect(placedPinsOf(pins)).toBe(kept);
    expect(values).not.toHaveBeenCalled();
    expect(pinTypeCountsOf(kept)).toEqual({ regular: 1, pause: 2, warning: 1 });
    // Another record (a patch made a copy): walked for itself.
    const patched = new Map(pins);
    patched.set('A1', { ...pins.get('A1')!, is_warning: true });
    expect(pinTypeCountsOf(placedPinsOf(patched))).toEqual({ regular: 0, pause: 2, warning: 2 });
  });
});

describe('the pin feed gathers its placed pins as it is parsed (fetchDevicePinsFx)', () => {
  const feed = (tuples: DevicePinTuple[]) => {
    // A signed-out page (no token cookie) of a browser without workers: the feed is read on this thread.
    vi.stubGlobal('document', { cookie: '' });
    return vi.fn(async () => new Response(`[${tuples.map((t) => JSON.stringify(t)).join(',\n')}]`, { status: 200 }));
  };

  it('keeps the tally with the record it answers', async () => {
    vi.stubGlobal('fetch', feed([tuple('A1', true), tuple('B2', false), tuple('C3', true, PIN_BITS.is_pause)]));
    const pins = await fetchDevicePinsFx();
    expect([...pins.keys()]).toEqual(['A1', 'B2', 'C3']);
    expect(placedPinsOf(pins).map((pin) => pin.serial)).toEqual(['A1', 'C3']);
    expect(pinTypeCountsOf(placedPinsOf(pins))).toEqual({ regular: 1, pause: 1, warning: 0 });
  });

  it('counts a serial the feed gave twice once, as the record holds it (its later pin)', async () => {
    vi.stubGlobal('fetch', feed([tuple('A1', true), tuple('C3', true), tuple('A1', true, PIN_BITS.is_warning)]));
    const pins = await fetchDevicePinsFx();
    expect(placedPinsOf(pins).map((pin) => pin.serial)).toEqual(['A1', 'C3']);
    expect(pinTypeCountsOf(placedPinsOf(pins))).toEqual({ regular: 1, pause: 0, warning: 1 });
  });
});
