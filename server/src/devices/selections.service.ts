import {
  BRAND_MESSAGES,
  listCounts,
  SELECTION_MESSAGES,
  type AssignBrandToSelectionInput,
  type BrandAnswer,
  type DeviceSelection,
  type ResolvedSelection,
} from '@fleet/shared';
import { deviceScope, isDistributor, type ScopeViewer } from '../access/scope.ts';
import { ApiError } from '../lib/errors.ts';
import { namedSerials, type SelectionRepository } from './device-selection.ts';

/** The count with the brands and counties of the devices (shared listCounts, the rule of every list's counts). */
function tally(places: Parameters<typeof listCounts>[0]) {
  const { devices, brands, counties } = listCounts(places);
  return { total: devices, brands, counties };
}

export type SelectionsServiceDeps = {
  repo: SelectionRepository;
  /** The brand as its caller sees it (the answer of every brand write). */
  brandAnswer: (viewer: ScopeViewer, brandId: number) => Promise<BrandAnswer | undefined>;
  /** Devices a committed write changed: the pollers watching them poll now. */
  devicesChanged?: (serials: string[]) => void;
};

/**
 * Selections (issue 46): resolved in the caller's scope (deviceScope), never the browser's word for it.
 * - resolve: every role, its own scope; a serial outside it is simply not selected (and never named).
 * - assignBrand: distributors (as POST /api/v1/assignBrandToDevice), all or nothing in one transaction;
 *   a named serial that is not a placed device in scope is a 400 naming it, so a typo moves nothing.
 */
export function selectionsService({ repo, brandAnswer, devicesChanged = () => undefined }: SelectionsServiceDeps) {
  return {
    async resolve(viewer: ScopeViewer, selection: DeviceSelection, limit: number, counts = false): Promise<ResolvedSelection> {
      const scope = deviceScope(viewer);
      const [counted, serials] = await Promise.all([
        counts ? repo.places(scope, selection).then(tally) : repo.count(scope, selection).then((total) => ({ total })),
        repo.serials(scope, selection, limit),
      ]);
      return { ...counted, serials };
    },

    async assignBrand(viewer: ScopeViewer, input: AssignBrandToSelectionInput): Promise<BrandAnswer & { transferred: number }> {
      if (!isDistributor(viewer)) throw ApiError.forbidden();
      const scope = deviceScope(viewer);
      const moved = await repo.transaction(async (tx) => {
        if (!(await tx.lockBrand(input.brandId))) throw ApiError.notFound(BRAND_MESSAGES.notFound);
        const missing = await tx.missing(scope, namedSerials(input.selection));
        if (missing.length) throw new ApiError(400, { selection: missing.map(SELECTION_MESSAGES.unknownDevice) });
        const moved = await tx.setBrand(scope, input.selection, input.brandId);
        // Nothing moved: either every device of the selection already has the brand, or it holds none.
        if (!moved.length && (await tx.count(scope, input.selection)) === 0)
          throw ApiError.field('selection', SELECTION_MESSAGES.empty);
        return moved;
      });
      devicesChanged(moved);
      const brand = await brandAnswer(viewer, input.brandId);
      if (!brand) throw ApiError.notFound(BRAND_MESSAGES.notFound);
      return { ...brand, transferred: moved.length };
    },
  };
}
