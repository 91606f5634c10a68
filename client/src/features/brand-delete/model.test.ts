import type { BrandAnswer } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $brands, fetchBrandsFx } from '../../entities/brand';
import { fetchDevicesFx } from '../../entities/device';
import { HttpError } from '../../shared/api';
import {
  $deleteStep,
  $transferChoices,
  $transferTargetError,
  brandDeleteConfirmed,
  brandDeleteRequested,
  brandDeleteResult,
  deleteBrandFx,
  transferAnswered,
  transferTargetChosen,
  transferTargetConfirmed,
} from './model';

const brand = (id: number, name: string, device_count: number) =>
  ({ id, name, device_count, clients: [], deviceSerials: [] }) as unknown as BrandAnswer;
const BRANDS = [brand(1, 'SunStop', 3), brand(2, 'Bayou', 0), brand(3, 'Gulf', 5)];

function setup(fail = false) {
  const calls: unknown[] = [];
  const scope = fork({
    values: [[$brands, BRANDS]],
    handlers: [
      [
        deleteBrandFx,
        async (p: { id: number; transferBrandId: number | null }) => {
          calls.push(p);
          if (fail) throw new HttpError(500, null);
          return { detail: 'Brand deleted', transferred: p.transferBrandId ? 3 : 0 };
        },
      ],
      [fetchBrandsFx, async () => BRANDS],
      [fetchDevicesFx, async () => []],
      [brandDeleteResult.timerFx, async () => -1],
    ],
  });
  return { scope, calls };
}

describe('brand delete dialog', () => {
  it('a brand with devices: transfer? Yes, pick a brand (not itself), confirm, then delete with the transfer', async () => {
    const { scope, calls } = setup();
    await allSettled(brandDeleteRequested, { scope, params: BRANDS[0]! });
    expect(scope.getState($deleteStep)).toBe('transfer-ask');
    await allSettled(transferAnswered, { scope, params: true });
    expect(scope.getState($deleteStep)).toBe('transfer-pick');
    expect(scope.getState($transferChoices).map((b) => b.name)).toEqual(['Bayou', 'Gulf']);
    await allSettled(transferTargetConfirmed, { scope });
    expect(scope.getState($transferTargetError)).toBe('Choose the brand that takes the devices.');
    await allSettled(transferTargetChosen, { scope, params: 3 });
    await allSettled(transferTargetConfirmed, { scope });
    expect(scope.getState($deleteStep)).toBe('confirm');
    await allSettled(brandDeleteConfirmed, { scope });
    expect(calls).toEqual([{ id: 1, transferBrandId: 3 }]);
    expect(scope.getState(brandDeleteResult.$result)).toMatchObject({
      title: 'BRAND DELETED',
      message: 'SunStop is deleted. 3 devices moved to Gulf.',
    });
    expect(scope.getState($deleteStep)).toBe('closed');
  });

  it('No to the transfer deletes without one; a brand without devices goes straight to the question', async () => {
    const { scope, calls } = setup();
    await allSettled(brandDeleteRequested, { scope, params: BRANDS[0]! });
    await allSettled(transferAnswered, { scope, params: false });
    expect(scope.getState($deleteStep)).toBe('confirm');
    await allSettled(brandDeleteConfirmed, { scope });
    await allSettled(brandDeleteRequested, { scope, params: BRANDS[1]! });
    expect(scope.getState($deleteStep)).toBe('confirm');
    await allSettled(brandDeleteConfirmed, { scope });
    expect(calls).toEqual([
      { id: 1, transferBrandId: null },
      { id: 2, transferBrandId: null },
    ]);
  });

  it('a failure says Something went wrong.', async () => {
    const { scope } = setup(true);
    await allSettled(brandDeleteRequested, { scope, params: BRANDS[1]! });
    await allSettled(brandDeleteConfirmed, { scope });
    expect(scope.getState(brandDeleteResult.$result)).toMatchObject({ tone: 'danger', title: 'Something went wrong.' });
  });
});
