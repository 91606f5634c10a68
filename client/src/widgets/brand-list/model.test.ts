import type { BrandAnswer, CurrentUser } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fetchBrandsFx } from '../../entities/brand';
import { $counties, fetchRollupFx, type RollupQuery } from '../../entities/county';
import { $user } from '../../entities/session';
import { overviewChangedReceived } from '../../shared/realtime';
import { $deleteStep, $deletingBrand } from '../../features/brand-delete/model';
import { brandInitials, searchBrands } from './lib/brand-list-lib';
import {
  $canDelete,
  $selectedBrandCounties,
  $visibleBrands,
  brandListClosed,
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
  const rollups: RollupQuery[] = [];
  const scope = fork({
    values: [
      [$user, user(access)],
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
    handlers: [
      [fetchBrandsFx, async () => (reads++, BRANDS)],
      // The server's counts by county of brand 1's devices (two in Orleans, one of them offline).
      [
        fetchRollupFx,
        async (query: RollupQuery) => (
          rollups.push(query),
          {
            rows:
              query.brand === 1
                ? [
                    {
                      key: '5',
                      name: 'Orleans Parish',
                      address: null,
                      serial: null,
                      label: null,
                      total: 2,
                      online: 1,
                      offline: 1,
                      warning: 0,
                    },
                  ]
                : [],
          }
        ),
      ],
    ],
  });
  return { scope, reads: () => reads, rollups };
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

  it('reads the selected brand’s counties from the server while the list shows', async () => {
    const { scope, rollups } = setup();
    await allSettled(brandListOpened, { scope });
    await allSettled(brandTileClicked, { scope, params: 1 });
    expect(rollups).toEqual([{ by: 'county', brand: 1 }]);
    expect(scope.getState($selectedBrandCounties)).toEqual([
      { id: 5, name: 'Orleans', total: 2, online: 1, offline: 1, warning: 0 },
    ]);
    // A pushed change reads them again; another brand shows only its own counties.
    await allSettled(overviewChangedReceived, { scope, params: { location: null, online_devices: 3 } as never });
    await allSettled(brandTileClicked, { scope, params: 2 });
    expect(rollups).toEqual([
      { by: 'county', brand: 1 },
      { by: 'county', brand: 1 },
      { by: 'county', brand: 2 },
    ]);
    expect(scope.getState($selectedBrandCounties)).toEqual([]);
    // The brands read again (devices transferred into one): its counties too.
    await allSettled(fetchBrandsFx, { scope });
    expect(rollups).toHaveLength(4);
    // The list left: nothing is read.
    await allSettled(brandListClosed, { scope });
    await allSettled(overviewChangedReceived, { scope, params: { location: null, online_devices: 3 } as never });
    expect(rollups).toHaveLength(4);
  });
});

describe('brand list lib', () => {
  it('searches and makes initials', () => {
    expect(searchBrands(BRANDS, ' gulf ').map((b) => b.id)).toEqual([3]);
    expect(brandInitials('Gulf Shield SPF')).toBe('GS');
    expect(brandInitials('sunstop')).toBe('S');
  });
});
