import { brandsApi, type BrandAnswer } from '@fleet/shared';
import { createEvent, createStore, sample } from 'effector';
import { call, createApiFx } from '../../shared/api';

/**
 * The brands of GET /api/v1/brand (spec section 3: name, logo, clients, device serials), in the caller's
 * scope. One store read by the Brand List, the brand dialogs and the Batch List's Brand filter.
 */
export const brandsRequested = createEvent();
/** The session ended: nothing of the last user's brands stays. */
export const brandsCleared = createEvent();
export const fetchBrandsFx = createApiFx<void, BrandAnswer[]>(() => call(brandsApi.list));

export const $brands = createStore<BrandAnswer[]>([]);
export const $brandsStatus = createStore<'idle' | 'loading' | 'ready' | 'failed'>('idle');

$brands.on(fetchBrandsFx.doneData, (_, list) => list).reset(brandsCleared);
$brandsStatus
  .on(fetchBrandsFx, (status) => (status === 'ready' ? status : 'loading'))
  .on(fetchBrandsFx.done, () => 'ready')
  .on(fetchBrandsFx.fail, (status) => (status === 'ready' ? status : 'failed'))
  .reset(brandsCleared);
sample({ clock: brandsRequested, fn: () => undefined, target: fetchBrandsFx });
