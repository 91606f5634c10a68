import { addBrandFieldsSchema, BRAND_MESSAGES, MAX_CLIENTS_PER_BRAND, type BrandAnswer, brandsApi } from '@fleet/shared';
import { combine, createEvent, createStore, sample } from 'effector';
import { $brands, brandsRequested } from '../../entities/brand';
import { devicesRequested } from '../../entities/device';
import { clientUsersCleared, clientUsersRequested } from '../../entities/user';
import { $accessLevel, sessionEnded } from '../../entities/session';
import { call, createApiFx, fieldMessages, serverReason } from '../../shared/api';
import { createResultPopup } from '../../shared/lib';

/**
 * ADD NEW BRAND and the brand details dialog (spec sections 2, 5, 7, 8): a name ('(Required)'), a logo
 * by drag and drop or the picker ('Image Required'), and up to 5 client slots, a client chosen in one
 * slot disabled in the others. Save sends the brand (multipart), then its clients
 * (assignBrandToClient); the result popup closes after 1 s. Distributors only.
 */
export type BrandFormMode = 'closed' | 'add' | 'edit';
export type BrandFormValues = { name: string; image: File | null; clients: string[] };
export type BrandFieldErrors = Partial<Record<'name' | 'image' | 'clients', string>>;

export const BRAND_RESULT = {
  added: 'BRAND ADDED',
  addFailed: 'FAIL TO ADD BRAND',
  edited: 'BRAND EDITED',
  editFailed: 'FAIL TO EDIT BRAND',
} as const;
/** Spec sections 4 and 9: the brand popup closes after 1 s. */
export const BRAND_RESULT_MS = 1000;
export const CLIENT_SLOTS = MAX_CLIENTS_PER_BRAND;
export const BRAND_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

const emptySlots = () => Array.from({ length: CLIENT_SLOTS }, () => '');
export const EMPTY_BRAND_FORM: BrandFormValues = { name: '', image: null, clients: emptySlots() };

export function formOfBrand(brand: BrandAnswer): BrandFormValues {
  const clients = brand.clients.map((c) => c.email).slice(0, CLIENT_SLOTS);
  return { name: brand.name, image: null, clients: [...clients, ...emptySlots()].slice(0, CLIENT_SLOTS) };
}

/** Picks a client for a slot; a client already in another slot is not taken twice. */
export function withClient(slots: readonly string[], slot: number, email: string): string[] {
  if (email !== '' && slots.some((e, i) => i !== slot && e === email)) return [...slots];
  return slots.map((e, i) => (i === slot ? email : e));
}

/** The chosen clients, once each, in slot order. */
export const chosenClients = (slots: readonly string[]) => [...new Set(slots.filter((e) => e !== ''))];

/**
 * The client-side check (spec section 5): a name, and an image (a new file, or in edit the logo the
 * brand already has). Nothing is sent while either is missing.
 */
export function checkBrandForm(form: BrandFormValues, existingImage: string | null): BrandFieldErrors {
  const errors: BrandFieldErrors = {};
  const name = addBrandFieldsSchema.safeParse({ name: form.name });
  if (!name.success) errors.name = name.error.issues[0]?.message ?? BRAND_MESSAGES.nameRequired;
  if (!form.image && !existingImage) errors.image = BRAND_MESSAGES.imageRequired;
  if (form.image && !(BRAND_IMAGE_TYPES as readonly string[]).includes(form.image.type)) errors.image = BRAND_MESSAGES.imageType;
  return errors;
}

// ---------------------------------------------------------------- calls

const assignClients = (brandId: number, clientEmails: string[]) =>
  call(brandsApi.assignClients, { body: { brandId, clientEmails } });

/** addBrand answers the id; the clients follow (spec section 7: 'then assignBrandToClient'). */
export const addBrandFx = createApiFx(async ({ name, image, clients }: { name: string; image: File; clients: string[] }) => {
  const form = new FormData();
  form.set('name', name.trim());
  form.set('image', image);
  const brand = await call(brandsApi.add, { form });
  return clients.length ? assignClients(brand.id, clients) : brand;
});
/** PUT only what changed (name and/or logo), then the client set, which replaces the old one. */
export const editBrandFx = createApiFx(
  async ({ id, name, image, clients }: { id: number; name: string | null; image: File | null; clients: string[] }) => {
    if (name !== null || image) {
      const form = new FormData();
      if (name !== null) form.set('name', name.trim());
      if (image) form.set('image', image);
      await call(brandsApi.edit, { params: { id }, form });
    }
    return assignClients(id, clients);
  },
);

// ---------------------------------------------------------------- events and stores

export const brandAddOpened = createEvent();
/** The brand details dialog of a brand (Detail, or a brand tile in edit mode). */
export const brandDetailOpened = createEvent<number>();
export const brandFormClosed = createEvent();
export const brandNameChanged = createEvent<string>();
export const brandImageChosen = createEvent<File | null>();
export const brandClientChosen = createEvent<{ slot: number; email: string }>();
export const brandFormSubmitted = createEvent();
const formFinished = createEvent();

export const brandResult = createResultPopup({ ms: BRAND_RESULT_MS, resetOn: [sessionEnded] });

export const $canManageBrands = $accessLevel.map((level) => level === 'distributor');
export const $brandFormMode = createStore<BrandFormMode>('closed');
export const $editedBrandId = createStore<number | null>(null);
export const $editedBrand = combine($brands, $editedBrandId, (brands, id) =>
  id === null ? null : (brands.find((b) => b.id === id) ?? null),
);
export const $brandForm = createStore<BrandFormValues>(EMPTY_BRAND_FORM, { serialize: 'ignore' });
export const $brandErrors = createStore<BrandFieldErrors>({});
export const $brandSaving = combine(addBrandFx.pending, editBrandFx.pending, (a, e) => a || e);

const addOpened = sample({ clock: brandAddOpened, filter: $canManageBrands });
const detailOpened = sample({
  clock: brandDetailOpened,
  source: $brands,
  filter: (brands, id) => brands.some((b) => b.id === id),
  fn: (brands, id) => brands.find((b) => b.id === id)!,
});
const editOpened = sample({ clock: detailOpened, filter: $canManageBrands });
// The client slots offer every client account (GET /api/v1/myUser), read afresh each time the dialog opens.
sample({ clock: [addOpened, editOpened], fn: () => undefined, target: clientUsersRequested });
sample({ clock: sessionEnded, fn: () => undefined, target: clientUsersCleared });

$brandFormMode
  .on(addOpened, () => 'add')
  .on(editOpened, () => 'edit')
  .reset(brandFormClosed, formFinished, sessionEnded);
$editedBrandId.on(editOpened, (_, brand) => brand.id).reset(addOpened, brandFormClosed, formFinished, sessionEnded);
$brandForm
  .on(editOpened, (_, brand) => formOfBrand(brand))
  .on(brandNameChanged, (form, name) => ({ ...form, name }))
  .on(brandImageChosen, (form, image) => ({ ...form, image }))
  .on(brandClientChosen, (form, { slot, email }) => ({ ...form, clients: withClient(form.clients, slot, email) }))
  .reset(addOpened, brandFormClosed, formFinished, sessionEnded);
$brandErrors
  .on(brandNameChanged, ({ name: _gone, ...rest }) => rest)
  .on(brandImageChosen, ({ image: _gone, ...rest }) => rest)
  .on(brandClientChosen, ({ clients: _gone, ...rest }) => rest)
  .reset(addOpened, editOpened, brandFormClosed, formFinished, sessionEnded);

// ---------------------------------------------------------------- saving

const checked = sample({
  clock: brandFormSubmitted,
  source: { form: $brandForm, mode: $brandFormMode, brand: $editedBrand, saving: $brandSaving },
  filter: ({ mode, saving }) => mode !== 'closed' && !saving,
  fn: ({ form, mode, brand }) => ({
    form,
    mode,
    brand,
    errors: checkBrandForm(form, mode === 'edit' ? (brand?.image_url ?? null) : null),
  }),
});
$brandErrors.on(checked, (_, { errors }) => errors);
const valid = sample({ clock: checked, filter: ({ errors }) => Object.keys(errors).length === 0 });
sample({
  clock: valid,
  filter: ({ mode, form }) => mode === 'add' && form.image !== null,
  fn: ({ form }) => ({ name: form.name, image: form.image!, clients: chosenClients(form.clients) }),
  target: addBrandFx,
});
sample({
  clock: valid,
  filter: ({ mode, brand }) => mode === 'edit' && brand !== null,
  fn: ({ form, brand }) => ({
    id: brand!.id,
    name: form.name.trim() === brand!.name ? null : form.name,
    image: form.image,
    clients: chosenClients(form.clients),
  }),
  target: editBrandFx,
});

$brandErrors.on([addBrandFx.failData, editBrandFx.failData], (errors, error) => {
  const fields = fieldMessages(error);
  return {
    ...errors,
    ...(fields.name ? { name: fields.name } : {}),
    ...(fields.image ? { image: fields.image } : {}),
    ...(fields.clientEmails ? { clients: fields.clientEmails } : {}),
  };
});

sample({ clock: [addBrandFx.done, editBrandFx.done], target: formFinished });
// The Brand List and the devices' brand names (a rename shows on every card).
sample({ clock: [addBrandFx.done, editBrandFx.done], fn: () => undefined, target: [brandsRequested, devicesRequested] });
/** A brand was added or edited: its answer (the Brand List selects a new one). */
export const brandSaved = createEvent<BrandAnswer>();
sample({ clock: [addBrandFx.doneData, editBrandFx.doneData], target: brandSaved });

const clientsText = (b: BrandAnswer) =>
  b.clients.length ? ` Clients: ${b.clients.map((c) => c.company || c.email).join(', ')}.` : '';
sample({
  clock: addBrandFx.doneData,
  fn: (b) => ({
    tone: 'success' as const,
    title: BRAND_RESULT.added,
    message: `${b.name} is in the Brand List.${clientsText(b)}`,
  }),
  target: brandResult.shown,
});
sample({
  clock: editBrandFx.doneData,
  fn: (b) => ({ tone: 'success' as const, title: BRAND_RESULT.edited, message: `${b.name} is saved.${clientsText(b)}` }),
  target: brandResult.shown,
});
sample({
  clock: addBrandFx.failData,
  fn: (e) => ({ tone: 'danger' as const, title: BRAND_RESULT.addFailed, message: serverReason(e) }),
  target: brandResult.shown,
});
sample({
  clock: editBrandFx.failData,
  fn: (e) => ({ tone: 'danger' as const, title: BRAND_RESULT.editFailed, message: serverReason(e) }),
  target: brandResult.shown,
});
