import type { BrandAnswer } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $brands, fetchBrandsFx } from '../../entities/brand';
import { $devices, $devicesStatus, fetchDevicesFx, normaliseDevices } from '../../entities/device';
import { fakeDevice } from '../../entities/device/lib/fake-device';
import {
  $selectedSerials,
  $transferOptions,
  $transferRows,
  assignDevicesFx,
  deviceToggled,
  selectAllClicked,
  transferClicked,
  transferFilterChanged,
  transferOpened,
  transferResult,
} from './model';

const DEVICES = [
  fakeDevice('A1', { brand: 1, brand_name: 'SunStop', location_id: 1, address: 'Pier 1' }),
  fakeDevice('B2', { brand: 2, brand_name: 'Bayou', location_id: 1, address: 'Pier 1' }),
  fakeDevice('C3', { brand: 2, brand_name: 'Bayou', location_id: 2, address: 'Park' }),
  fakeDevice('D4', { brand: null, brand_name: null, location_id: 2, address: 'Park' }),
];

function setup() {
  const sent: unknown[] = [];
  const reads: string[] = [];
  const scope = fork({
    values: [
      [$devices, normaliseDevices(DEVICES)],
      // The full list was already read (the dialog asks for it only when it is not).
      [$devicesStatus, 'ready'],
      [$brands, [{ id: 1, name: 'SunStop' }] as BrandAnswer[]],
    ],
    handlers: [
      [assignDevicesFx, async (p: unknown) => (sent.push(p), { id: 1, name: 'SunStop' } as BrandAnswer)],
      [fetchDevicesFx, async () => (reads.push('devices'), DEVICES)],
      [fetchBrandsFx, async () => (reads.push('brands'), [])],
      [transferResult.timerFx, async () => -1],
    ],
  });
  return { scope, sent, reads };
}
const serials = (scope: ReturnType<typeof fork>) => scope.getState($transferRows).map((d) => d.serial);

describe("'Add Device To {brand}'", () => {
  it('lists the devices of other brands, filtered by District, Address and Brand', async () => {
    const { scope } = setup();
    await allSettled(transferOpened, { scope, params: 1 });
    expect(serials(scope)).toEqual(['B2', 'C3', 'D4']);
    expect(scope.getState($transferOptions)).toEqual({
      addresses: ['Park', 'Pier 1'],
      brands: [[2, 'Bayou']],
      districts: [1, 2],
    });
    await allSettled(transferFilterChanged, { scope, params: { district: 2 } });
    expect(serials(scope)).toEqual(['C3', 'D4']);
    await allSettled(transferFilterChanged, { scope, params: { brand: 'none' } });
    expect(serials(scope)).toEqual(['D4']);
    await allSettled(transferFilterChanged, { scope, params: { district: null, brand: 2, address: 'Pier 1' } });
    expect(serials(scope)).toEqual(['B2']);
  });

  it('Select All takes every row shown (again: none); Transfer needs one and sends the selection', async () => {
    const { scope, sent, reads } = setup();
    await allSettled(transferOpened, { scope, params: 1 });
    await allSettled(transferClicked, { scope });
    expect(sent).toEqual([]);
    await allSettled(transferFilterChanged, { scope, params: { district: 2 } });
    await allSettled(selectAllClicked, { scope });
    expect([...scope.getState($selectedSerials)]).toEqual(['C3', 'D4']);
    await allSettled(selectAllClicked, { scope });
    expect(scope.getState($selectedSerials).size).toBe(0);
    await allSettled(deviceToggled, { scope, params: 'B2' });
    await allSettled(deviceToggled, { scope, params: 'D4' });
    await allSettled(deviceToggled, { scope, params: 'B2' });
    await allSettled(transferClicked, { scope });
    expect(sent).toEqual([{ brandId: 1, deviceSerials: ['D4'] }]);
    expect(scope.getState(transferResult.$result)).toMatchObject({
      title: 'DEVICES TRANSFERRED',
      message: '1 device now belongs to SunStop.',
    });
    expect(reads.sort()).toEqual(['brands', 'devices']);
  });
});
