import { combine, createEvent, createStore, sample } from 'effector';
import { $brands, $brandsStatus, brandsCleared, brandsRequested, fetchBrandsFx } from '../../entities/brand';
import { $countyNames, countyRowsOf, createRollup, type RollupQuery } from '../../entities/county';
import { $accessLevel, sessionEnded } from '../../entities/session';
import { brandDeleted, brandDeleteRequested } from '../../features/brand-delete';
import { brandSaved } from '../../features/brand-form';
import { searchBrands } from './lib/brand-list-lib';

/**
 * The BRAND sub-tab of DEVICE LIST (spec section 2): the 'Brand List' grid with a name search and the
 * add-brand tile; Edit switches to edit mode (Save leaves it), where Delete acts on the selected brand;
 * Pause is shown disabled and does nothing; Detail opens the selected brand's dialog. A selected brand
 * shows its logo, name and county cards, and (distributors) the button that adds devices to it.
 */
export const brandListOpened = createEvent();
/** The BRAND sub-tab left (its counties are no longer read). */
export const brandListClosed = createEvent();
export const brandSearchChanged = createEvent<string>();
export const brandTileClicked = createEvent<number>();
export const editModeToggled = createEvent();
export const deleteClicked = createEvent();

export const $brandSearch = createStore('')
  .on(brandSearchChanged, (_, text) => text)
  .reset(sessionEnded);
export const $selectedBrandId = createStore<number | null>(null)
  .on(brandTileClicked, (current, id) => (current === id ? null : id))
  .on(brandSaved, (_, brand) => brand.id)
  .reset(brandDeleted, sessionEnded);
export const $editMode = createStore(false)
  .on(editModeToggled, (on) => !on)
  .reset(sessionEnded);
export const $canManageBrandList = $accessLevel.map((level) => level === 'distributor');
export const $brandListStatus = $brandsStatus;

export const $visibleBrands = combine($brands, $brandSearch, searchBrands);
export const $selectedBrand = combine($brands, $selectedBrandId, (brands, id) =>
  id === null ? null : (brands.find((b) => b.id === id) ?? null),
);
/** Spec section 2: Delete is enabled only with a brand selected in edit mode. */
export const $canDelete = combine(
  $editMode,
  $selectedBrand,
  $canManageBrandList,
  (edit, brand, can) => can && edit && brand !== null,
);

const $brandListShown = createStore(false)
  .on(brandListOpened, () => true)
  .reset(brandListClosed, sessionEnded);
/**
 * The selected brand's devices by county (as the COUNTY cards count them), counted by the server
 * (GET /api/v1/deviceRollup?by=county&brand=, from the kept counts) while the list shows, and read again
 * when the overview's counts are pushed or the brands are read again (a transfer of devices into it).
 */
const brandCounties = createRollup(
  combine($brandListShown, $selectedBrandId, (shown, id): RollupQuery | null =>
    shown && id !== null ? { by: 'county', brand: id } : null,
  ),
  // The brands read again (after devices were transferred into one, or its details saved).
  [fetchBrandsFx.done],
);
export const $selectedBrandCounties = combine(brandCounties.$rows, $countyNames, countyRowsOf);
export const $selectedBrandCountiesStatus = brandCounties.$status;

sample({ clock: brandListOpened, target: brandsRequested });
sample({
  clock: deleteClicked,
  source: { can: $canDelete, brand: $selectedBrand },
  filter: ({ can }) => can,
  fn: ({ brand }) => brand!,
  target: brandDeleteRequested,
});
sample({ clock: sessionEnded, target: brandsCleared });
