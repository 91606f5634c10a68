import { describe, expect, it } from 'vitest';
import { decodeDevicePin, devicePinTupleSchema, PIN_BITS, pinBits, type PinFlag } from './device-pin.schema';

const FLAGS = Object.keys(PIN_BITS) as PinFlag[];

describe('the pin feed tuple', () => {
  it('decodes each flag from its own bit, and only that flag', () => {
    for (const flag of FLAGS) {
      const pin = decodeDevicePin(['SN-1', 1, 2, PIN_BITS[flag], 'Pier', 3, 4, 5]);
      for (const other of FLAGS) expect(pin[other], `${flag} set, ${other} read`).toBe(other === flag);
    }
  });

  it('round-trips every combination of flags through pinBits', () => {
    for (let bits = 0; bits < 2 ** FLAGS.length; bits++) {
      const pin = decodeDevicePin(['SN-1', null, null, bits, '', null, null, null]);
      expect(pinBits(pin)).toBe(bits);
    }
  });

  it('names the tuple fields as the device answer does, with no position when lat or lng is missing', () => {
    const tuple = devicePinTupleSchema.parse([
      'SN-7',
      26.1,
      -80.1,
      PIN_BITS.is_online | PIN_BITS.is_warning,
      'Lifeguard 7',
      7,
      12,
      3,
    ]);
    expect(decodeDevicePin(tuple)).toEqual({
      serial: 'SN-7',
      location: { lat: 26.1, lng: -80.1 },
      label: 'Lifeguard 7',
      number: 7,
      location_group: 12,
      brand: 3,
      is_pause: false,
      is_warning: true,
      is_online: true,
      is_registration: false,
      is_activated: false,
      is_batch_warning: false,
      is_maintenance: false,
    });
    expect(decodeDevicePin(['SN-8', 26.1, null, 0, '', null, null, null]).location).toBeNull();
    expect(decodeDevicePin(['SN-9', null, -80.1, 0, '', null, null, null]).location).toBeNull();
  });
});
