import { plural, brandsApi } from '@fleet/shared';
import type { BrandAnswer } from '@fleet/shared';
import { createEvent, createStore, sample } from 'effector';
import { $brands, brandsRequested } from '../../entities/brand';
import { devicesRequested } from '../../entities/device';
import { sessionEnded } from '../../entities/session';
import { call, createApiFx } from '../../shared/api';
import { createResultPopup } from '../../shared/lib';

/**
 * The brand delete dialog (spec sections 2, 5, 8): a brand with devices first asks whether to transfer
 * them to another brand (Yes picks the brand), then 'Are you sure you want to delete the <brand> ?'; a
 * brand without devices goes straight to that question. Failure: 'Something went wrong.'. Without a
 * transfer the devices stay, with no brand.
 */
export type DeleteStep = 'closed' | 'transfer-ask' | 'transfer-pick' | 'confirm';

export const BRAND_DELETE_TEXT = {
  transferQuestion: 'Transfer the devices to another brand?',
  confirm: (name: string) => `Are you sure you want to delete the ${name} ?`,
  deleted: 'BRAND DELETED',
  failed: 'Something went wrong.',
} as const;

export const deleteBrandFx = createApiFx(({ id, transferBrandId }: { id: number; transferBrandId: number | null }) =>
  call(brandsApi.remove, {
    params: { id },
    body: transferBrandId === null ? {} : { transferBrandId },
  }),
);

export const brandDeleteRequested = createEvent<BrandAnswer>();
export const transferAnswered = createEvent<boolean>();
export const transferTargetChosen = createEvent<number | null>();
export const transferTargetConfirmed = createEvent();
export const brandDeleteCancelled = createEvent();
export const brandDeleteConfirmed = createEvent();
/** The brand is gone (its id). */
export const brandDeleted = createEvent<number>();

export const brandDeleteResult = createResultPopup({ ms: 1000, resetOn: [sessionEnded] });

export const $deletingBrand = createStore<BrandAnswer | null>(null)
  .on(brandDeleteRequested, (_, brand) => brand)
  .reset(brandDeleteCancelled, deleteBrandFx.finally, sessionEnded);
export const $deleteStep = createStore<DeleteStep>('closed')
  .on(brandDeleteRequested, (_, brand) => (brand.device_count > 0 ? 'transfer-ask' : 'confirm'))
  .on(transferAnswered, (step, yes) => (step === 'transfer-ask' ? (yes ? 'transfer-pick' : 'confirm') : step))
  .reset(brandDeleteCancelled, deleteBrandFx.finally, sessionEnded);
export const $transferTarget = createStore<number | null>(null)
  .on(transferTargetChosen, (_, id) => id)
  .reset(brandDeleteRequested, brandDeleteCancelled, deleteBrandFx.finally, sessionEnded);
export const $transferTargetError = createStore<string | null>(null)
  .on(transferTargetChosen, () => null)
  .reset(brandDeleteRequested, brandDeleteCancelled, sessionEnded);
/** Where the devices may go: any other brand. */
export const $transferChoices = sample({
  source: { brands: $brands, brand: $deletingBrand },
  fn: ({ brands, brand }) => (brand ? brands.filter((b) => b.id !== brand.id).sort((a, b) => a.name.localeCompare(b.name)) : []),
});

// 'No' to the transfer: the devices keep no brand.
$transferTarget.on(transferAnswered, (target, yes) => (yes ? target : null));
const picked = sample({
  clock: transferTargetConfirmed,
  source: { step: $deleteStep, target: $transferTarget },
  filter: ({ step }) => step === 'transfer-pick',
});
sample({ clock: picked, filter: ({ target }) => target !== null, fn: () => 'confirm' as const, target: $deleteStep });
sample({
  clock: picked,
  filter: ({ target }) => target === null,
  fn: () => 'Choose the brand that takes the devices.',
  target: $transferTargetError,
});

sample({
  clock: brandDeleteConfirmed,
  source: { brand: $deletingBrand, step: $deleteStep, target: $transferTarget, pending: deleteBrandFx.pending },
  filter: ({ brand, step, pending }) => brand !== null && step === 'confirm' && !pending,
  fn: ({ brand, target }) => ({ id: brand!.id, transferBrandId: target }),
  target: deleteBrandFx,
});
sample({ clock: deleteBrandFx.done, fn: ({ params }) => params.id, target: brandDeleted });
sample({ clock: deleteBrandFx.done, fn: () => undefined, target: [brandsRequested, devicesRequested] });

sample({
  clock: deleteBrandFx.done,
  source: $brands,
  fn: (brands, { params, result }) => {
    const name = brands.find((b) => b.id === params.id)?.name ?? 'The brand';
    const to = brands.find((b) => b.id === params.transferBrandId)?.name;
    const moved = result.transferred ? ` ${plural(result.transferred, 'device')} moved to ${to ?? 'the chosen brand'}.` : '';
    return { tone: 'success' as const, title: BRAND_DELETE_TEXT.deleted, message: `${name} is deleted.${moved}` };
  },
  target: brandDeleteResult.shown,
});
sample({
  clock: deleteBrandFx.fail,
  fn: () => ({ tone: 'danger' as const, title: BRAND_DELETE_TEXT.failed, message: null }),
  target: brandDeleteResult.shown,
});
