import type { BrandAnswer, CurrentUser } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fetchBrandsFx } from '../../entities/brand';
import { $counties } from '../../entities/county';
import { $devices, normaliseDevices } from '../../entities/device';
import { fakeDevice } from '../../entities/device/lib/fake-device';
import { $user } from '../../entities/session';
import { $deleteStep, $deletingBrand } from '../../features/brand-delete/model';
import { brandInitials, searchBrands } from './lib/brand-list-lib';
import {
  $canDelete,
  $selectedBrandCounties,
  $visibleBrands,
  brandListOpened,
  brandSearchChanged,
  brandTileClicked,
  deleteClicked,
  editModeToggled,
} from './model';

const brand = (id: number, name: string, device_count = 0) =>
  ({ id, name, device_count, clients: [], deviceSerials: [], image: null, image_url: null }) as BrandAnswer;
const BRANDS = [brand(1, 'SunStop', 2), brand(2, 'Bayou Clean'), brand(3, 'Gulf Shield SPF')];
const user = (access: string) =>
  ({
    id: 1,
    email: 'x@demo.test',
    role: access === 'client' ? 'client' : 'distributor',
    user_type: access,
    access,
  }) as unknown as CurrentUser;

function setup(access = 'distributor') {
  let reads = 0;
  const scope = fork({
    values: [
      [$user, user(access)],
      [
        $devices,
        normaliseDevices([
          fakeDevice('A1', { brand: 1, location_id: 5 }),
          fakeDevice('B2', { brand: 1, location_id: 5, is_online: false }),
          fakeDevice('C3', { brand: 2, location_id: 6 }),
        ]),
      ],
      [
        $counties,
        {
          type: 'FeatureCollection',
          features: [
            { type: 'Feature', id: 5, properties: { id: 5, name: 'Orleans' }, geometry: { type: 'Polygon', coordinates: [] } },
          ],
        },
      ],
    ],
    handlers: [[fetchBrandsFx, async () => (reads++, BRANDS)]],
  });
  return { scope, reads: () => reads };
}

describe('Brand List', () => {
  it('reads the brands when opened and searches names ignoring case and spaces', async () => {
    const { scope, reads } = setup();
    await allSettled(brandListOpened, { scope });
    expect(reads()).toBe(1);
    expect(scope.getState($visibleBrands).map((b) => b.name)).toEqual(['Bayou Clean', 'Gulf Shield SPF', 'SunStop']);
    await allSettled(brandSearchChanged, { scope, params: 'SUN stop' });
    expect(scope.getState($visibleBrands).map((b) => b.id)).toEqual([1]);
  });

  it('enables Delete only for a brand selected in edit mode, and Delete starts the delete dialog', async () => {
    const { scope } = setup();
    await allSettled(brandListOpened, { scope });
    await allSettled(brandTileClicked, { scope, params: 1 });
    expect(scope.getState($canDelete)).toBe(false);
    await allSettled(deleteClicked, { scope });
    expect(scope.getState($deleteStep)).toBe('closed');
    await allSettled(editModeToggled, { scope });
    expect(scope.getState($canDelete)).toBe(true);
    await allSettled(deleteClicked, { scope });
    expect(scope.getState($deletingBrand)?.id).toBe(1);
    expect(scope.getState($deleteStep)).toBe('transfer-ask');
    // A second click on the selected tile clears the selection.
    await allSettled(brandTileClicked, { scope, params: 1 });
    expect(scope.getState($canDelete)).toBe(false);
  });

  it('a client can never delete', async () => {
    const { scope } = setup('client');
    await allSettled(brandListOpened, { scope });
    await allSettled(brandTileClicked, { scope, params: 1 });
    await allSettled(editModeToggled, { scope });
    expect(scope.getState($canDelete)).toBe(false);
  });

  it('rolls the selected brand’s devices up by county', async () => {
    const { scope } = setup();
    await allSettled(brandListOpened, { scope });
    await allSettled(brandTileClicked, { scope, params: 1 });
    expect(scope.getState($selectedBrandCounties)).toEqual([
      { id: 5, name: 'Orleans', total: 2, online: 1, offline: 1, warning: 0 },
    ]);
  });
});

describe('brand list lib', () => {
  it('searches and makes initials', () => {
    expect(searchBrands(BRANDS, ' gulf ').map((b) => b.id)).toEqual([3]);
    expect(brandInitials('Gulf Shield SPF')).toBe('GS');
    expect(brandInitials('sunstop')).toBe('S');
  });
});
