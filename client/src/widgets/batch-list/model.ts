import { combine, createEvent, createStore, sample } from 'effector';
import { $batches, $batchesStatus, batchesCleared, batchesRequested } from '../../entities/batch';
import { $brands, brandsCleared, brandsRequested } from '../../entities/brand';
import { sessionEnded } from '../../entities/session';
import { batchesOfBrand } from './lib/batch-list-lib';

/**
 * The BATCH LIST tab (spec section 2): the caller's batches, expired ones last, with a Brand filter.
 * Read when the tab opens and after every batch action; the dialogs live in their features.
 */
export const batchListOpened = createEvent();
export const batchBrandFilterChanged = createEvent<number | null>();
export const batchListRetried = createEvent();

export const $batchBrandFilter = createStore<number | null>(null)
  .on(batchBrandFilterChanged, (_, id) => id)
  .reset(sessionEnded);
export const $visibleBatches = combine($batches, $batchBrandFilter, batchesOfBrand);
export const $batchListStatus = $batchesStatus;
export const $batchBrandOptions = $brands.map((brands) =>
  brands.map(({ id, name }) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name)),
);

sample({ clock: [batchListOpened, batchListRetried], target: [batchesRequested, brandsRequested] });
// Nothing of the last user's batches or brands stays after sign-out.
sample({ clock: sessionEnded, target: [batchesCleared, brandsCleared] });
