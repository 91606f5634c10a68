import {
  addBrandFieldsSchema,
  BRAND_MESSAGES,
  editBrandFieldsSchema,
  fieldErrors,
  type AssignBrandToClientInput,
  type AssignBrandToDeviceInput,
  type BrandAnswer,
  type DeleteBrandAnswer,
  type DeleteBrandInput,
} from '@fleet/shared';
import { isDistributor, type ScopeViewer } from '../access/scope.ts';
import { ApiError } from '../lib/errors.ts';
import type { BrandsRepository } from './brands.repository.ts';
import {
  checkImage as checkUploadedImage,
  withStoredImage as storeImageFor,
  type CheckedImage,
  type ImageStore,
  type UploadedImage,
} from './image-upload.ts';

export type BrandsServiceDeps = {
  repo: BrandsRepository;
  images: ImageStore;
  log: (msg: string, err?: unknown) => void;
  /**
   * Devices whose answers a committed write changed (their brand, its name or logo): the pollers watching
   * them poll now (workers/src/realtime/nudge.ts), so other screens see it within a second.
   */
  devicesChanged?: (serials: string[]) => void;
};

const notFound = () => ApiError.notFound(BRAND_MESSAGES.notFound);
const nameTaken = () => ApiError.field('name', BRAND_MESSAGES.nameTaken);

/**
 * Brands (spec sections 2, 3, 5 and 7). Reads are scoped like devices; every write is a distributor's
 * (brands, their clients and their devices are fleet management), and each write either applies whole
 * or not at all.
 */
export function brandsService({ repo, images, log, devicesChanged = () => undefined }: BrandsServiceDeps) {
  const requireDistributor = (viewer: ScopeViewer) => {
    if (!isDistributor(viewer)) throw ApiError.forbidden();
  };

  /** The brand as the distributor sees it: what every write answers with. */
  const answer = async (viewer: ScopeViewer, id: number): Promise<BrandAnswer> => {
    const [brand] = await repo.list(viewer, id);
    if (!brand) throw notFound();
    return brand;
  };

  /** Cleanup after the fact must not turn a saved change into an error answer; a stray file is only logged. */
  const forget = async (url: string | null | undefined) => {
    try {
      await images.remove(url);
    } catch (err) {
      log(`could not remove brand image ${url}`, err);
    }
  };

  /** Text fields and the file of a multipart body are checked together: one answer names both problems. */
  const checkImage = (image: UploadedImage | undefined, required: boolean, errors: Record<string, string[]>) =>
    checkUploadedImage(image, { required, errors });
  const withStoredImage = <T>(image: CheckedImage | undefined, write: (url: string | undefined) => Promise<T>) =>
    storeImageFor(images, forget, image, write);

  return {
    list(viewer: ScopeViewer): Promise<BrandAnswer[]> {
      return repo.list(viewer);
    },

    /** One brand; outside the caller's scope it does not exist (404), as for devices. */
    get(viewer: ScopeViewer, id: number): Promise<BrandAnswer> {
      return answer(viewer, id);
    },

    async add(viewer: ScopeViewer, fields: unknown, file: UploadedImage | undefined): Promise<BrandAnswer> {
      requireDistributor(viewer);
      const errors: Record<string, string[]> = {};
      const parsed = addBrandFieldsSchema.safeParse(fields ?? {});
      if (!parsed.success) Object.assign(errors, fieldErrors(parsed.error));
      const image = checkImage(file, true, errors);
      if (!parsed.success || !image || Object.keys(errors).length) throw new ApiError(400, errors);
      const { name } = parsed.data;
      // Checked before the file is written; the unique index still decides a race (insert answers no id).
      if (await repo.nameTaken(name)) throw nameTaken();
      const { result: id } = await withStoredImage(image, async (url) => {
        const id = await repo.insertBrand({ name, imageUrl: url! });
        if (id === undefined) throw nameTaken();
        return id;
      });
      return answer(viewer, id);
    },

    async edit(viewer: ScopeViewer, id: number, fields: unknown, file: UploadedImage | undefined): Promise<BrandAnswer> {
      requireDistributor(viewer);
      const errors: Record<string, string[]> = {};
      const parsed = editBrandFieldsSchema.safeParse(fields ?? {});
      if (!parsed.success) Object.assign(errors, fieldErrors(parsed.error));
      const image = checkImage(file, false, errors);
      if (!parsed.success || Object.keys(errors).length) throw new ApiError(400, errors);
      const { name } = parsed.data;
      if (name === undefined && !image) throw ApiError.badRequest(BRAND_MESSAGES.nothingToChange);

      const [existing] = await repo.findBrands([id]);
      if (!existing) throw notFound();
      if (name !== undefined && (await repo.nameTaken(name, id))) throw nameTaken();
      const { url } = await withStoredImage(image, async (url) => {
        const outcome = await repo.updateBrand(id, {
          ...(name !== undefined ? { name } : {}),
          ...(url ? { imageUrl: url } : {}),
        });
        if (outcome === 'taken') throw nameTaken();
        if (outcome === 'missing') throw notFound();
      });
      if (url && existing.imageUrl !== url) await forget(existing.imageUrl);
      const edited = await answer(viewer, id);
      devicesChanged(edited.deviceSerials);
      return edited;
    },

    /** Replaces the brand's clients (the 5 client slots of the Brand details dialog). */
    async assignClients(viewer: ScopeViewer, input: AssignBrandToClientInput): Promise<BrandAnswer> {
      requireDistributor(viewer);
      await repo.transaction(async (tx) => {
        // The lock serialises two dialogs saving the same brand: the last one wins whole.
        const [brand] = await tx.findBrands([input.brandId], { lock: true });
        if (!brand) throw notFound();
        const found = await tx.findAssignableClients(input.clientEmails);
        const known = new Set(found.map((u) => u.email));
        const unknown = input.clientEmails.filter((e) => !known.has(e));
        if (unknown.length) throw new ApiError(400, { clientEmails: unknown.map(BRAND_MESSAGES.unknownClient) });
        await tx.replaceClients(
          brand.id,
          found.map((u) => u.id),
        );
      });
      const assigned = await answer(viewer, input.brandId);
      // The devices read the same, but the clients' scopes (and overviews, which every nudge polls) changed.
      devicesChanged(assigned.deviceSerials);
      return assigned;
    },

    /** Gives the listed devices this brand (the Transfer button of 'Add Device To {brand}'). */
    async assignDevices(viewer: ScopeViewer, input: AssignBrandToDeviceInput): Promise<BrandAnswer> {
      requireDistributor(viewer);
      await repo.transaction(async (tx) => {
        const [brand] = await tx.findBrands([input.brandId], { lock: true });
        if (!brand) throw notFound();
        const found = await tx.findDevices(input.deviceSerials);
        const known = new Set(found.map((d) => d.serial));
        const unknown = input.deviceSerials.filter((s) => !known.has(s));
        if (unknown.length) throw new ApiError(400, { deviceSerials: unknown.map(BRAND_MESSAGES.unknownDevice) });
        await tx.setDevicesBrand(
          found.map((d) => d.id),
          brand.id,
        );
      });
      devicesChanged(input.deviceSerials);
      return answer(viewer, input.brandId);
    },

    /** Deletes a brand, first moving its devices to another brand when asked (Brand delete dialog). */
    async remove(viewer: ScopeViewer, id: number, input: DeleteBrandInput): Promise<DeleteBrandAnswer> {
      requireDistributor(viewer);
      const target = input.transferBrandId ?? undefined;
      if (target === id) throw ApiError.field('transferBrandId', BRAND_MESSAGES.sameTransferBrand);
      const { imageUrl, transferred, moved } = await repo.transaction(async (tx) => {
        // Both rows locked (in id order) so the transfer target cannot vanish before the move commits.
        const locked = await tx.findBrands(target === undefined ? [id] : [id, target], { lock: true });
        const brand = locked.find((b) => b.id === id);
        if (!brand) throw notFound();
        if (target !== undefined && !locked.some((b) => b.id === target)) {
          throw ApiError.field('transferBrandId', BRAND_MESSAGES.notFound);
        }
        // Without a transfer the devices stay, with no brand (the foreign key would do the same;
        // saying it here keeps the rule visible).
        const moved = await tx.moveDevices(id, target ?? null);
        await tx.deleteBrand(id);
        return { imageUrl: brand.imageUrl, transferred: target === undefined ? 0 : moved.length, moved };
      });
      devicesChanged(moved);
      await forget(imageUrl);
      return { detail: BRAND_MESSAGES.deleted, transferred };
    },
  };
}
