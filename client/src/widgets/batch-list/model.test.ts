import type { BatchAnswer, BrandAnswer } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fetchBatchListFx } from '../../entities/batch';
import { fetchBrandsFx } from '../../entities/brand';
import { sessionEnded } from '../../entities/session';
import { batchesOfBrand } from './lib/batch-list-lib';
import { $batchBrandOptions, $visibleBatches, batchBrandFilterChanged, batchListOpened } from './model';

const batch = (id: number, batch_no: string, status: BatchAnswer['status'], brands: number[]) =>
  ({ id, batch_no, status, brand_lists: brands.map((b) => ({ id: b, name: `B${b}` })) }) as BatchAnswer;
const BATCHES = [batch(1, 'SPF-9', 'EXPIRED', [1]), batch(2, 'SPF-10', 'IN_USE', [1, 2]), batch(3, 'SPF-2', 'NOT_IN_USE', [])];

describe('Batch List', () => {
  it('reads batches and brands when opened; expired last; the Brand filter keeps batches feeding that brand', async () => {
    const scope = fork({
      handlers: [
        [fetchBatchListFx, async () => BATCHES],
        [
          fetchBrandsFx,
          async () =>
            [
              { id: 2, name: 'Zed', clients: [] },
              { id: 1, name: 'Acme', clients: [] },
            ] as unknown as BrandAnswer[],
        ],
      ],
    });
    await allSettled(batchListOpened, { scope });
    expect(scope.getState($visibleBatches).map((b) => b.id)).toEqual([3, 2, 1]);
    expect(scope.getState($batchBrandOptions).map((b) => b.name)).toEqual(['Acme', 'Zed']);
    await allSettled(batchBrandFilterChanged, { scope, params: 1 });
    expect(scope.getState($visibleBatches).map((b) => b.id)).toEqual([2, 1]);
    await allSettled(sessionEnded, { scope, params: 'logout' });
    expect(scope.getState($visibleBatches)).toEqual([]);
  });

  it('filters in the pure function too', () => {
    expect(batchesOfBrand(BATCHES, 2).map((b) => b.id)).toEqual([2]);
  });
});
