import { z } from 'zod';
import { brandAnswerSchema } from './brand.schema.ts';
import { DEVICE_FILTER_MESSAGES, devicePageQuerySchema } from './device.schema.ts';
import { REPORT_LIMITS } from './report.schema.ts';

/**
 * A selection of devices described on the server (issue 46): a filter, with serials added or removed,
 * resolved by the server within the caller's scope. The browser never lists the fleet to say "all of
 * these": Advance Filter's Select All, /status and 'Add Device To {brand}' send the selection instead.
 */
export const SELECTION_LIMITS = {
  /** Serials named in one list of a selection (added, removed, or a step's). */
  serials: 10_000,
  /** Steps of one selection (each Select All / Clear All of a search is one). */
  steps: 50,
  /** Serials a resolve call answers at most: a report list's most (REPORT_LIMITS.maxDevices). */
  answer: REPORT_LIMITS.maxDevices,
} as const;

export const SELECTION_MESSAGES = {
  empty: 'Select at least one device.',
  unknownDevice: (serial: string) => `Unknown device: ${serial}.`,
  serials: `A list of at most ${SELECTION_LIMITS.serials} serials.`,
  steps: `At most ${SELECTION_LIMITS.steps} steps.`,
  step: "Each step is { op: 'select' | 'deselect', filter } or { op: 'add' | 'remove', serials }.",
  ...DEVICE_FILTER_MESSAGES,
  limit: `limit is a whole number from 0 to ${SELECTION_LIMITS.answer}.`,
  counts: 'counts is true or false.',
} as const;

/**
 * Which devices a filter matches: GET /api/v1/devicePage's filters, the same fields with the same rules and
 * messages (q, brand, county, site, partner, status; the 'Add Device To {brand}' dialog's notBrand, noBrand,
 * address; the exclusive picker's search). Every field is optional; `{}` matches every placed device in scope.
 */
export const deviceFilterSchema = devicePageQuerySchema.omit({ cursor: true, limit: true });
/** As the server reads it (partner: the lower-cased names). */
export type DeviceFilter = z.infer<typeof deviceFilterSchema>;
/** As a client sends it (partner: names joined by PARTNER_SEPARATOR). */
export type DeviceFilterInput = z.input<typeof deviceFilterSchema>;

const serialList = z
  .array(z.string({ error: SELECTION_MESSAGES.serials }).trim().min(1, { error: SELECTION_MESSAGES.serials }).max(64), {
    error: SELECTION_MESSAGES.serials,
  })
  .max(SELECTION_LIMITS.serials, { error: SELECTION_MESSAGES.serials })
  .transform((list) => [...new Set(list)]);

const selectionStepSchema = z.discriminatedUnion(
  'op',
  [
    z.object({ op: z.literal('select'), filter: deviceFilterSchema }),
    z.object({ op: z.literal('deselect'), filter: deviceFilterSchema }),
    z.object({ op: z.literal('add'), serials: serialList }),
    z.object({ op: z.literal('remove'), serials: serialList }),
  ],
  { error: SELECTION_MESSAGES.step },
);
export type SelectionStep = z.infer<typeof selectionStepSchema>;
export type SelectionStepInput = z.input<typeof selectionStepSchema>;

/**
 * The devices of a selection, in order: those `filter` matches, plus `serials`, minus `except`; then each
 * of `steps` in turn (select / deselect: the devices a filter matches join / leave; add / remove: those
 * serials join / leave). Always within the caller's scope and placed devices only: a serial outside it is
 * never selected. Nothing given: no device.
 */
export const deviceSelectionSchema = z.object(
  {
    filter: deviceFilterSchema.optional(),
    serials: serialList.optional(),
    except: serialList.optional(),
    steps: z
      .array(selectionStepSchema, { error: SELECTION_MESSAGES.steps })
      .max(SELECTION_LIMITS.steps, { error: SELECTION_MESSAGES.steps })
      .optional(),
  },
  { error: 'selection is an object: { filter?, serials?, except?, steps? }.' },
);
export type DeviceSelection = z.infer<typeof deviceSelectionSchema>;
export type DeviceSelectionInput = z.input<typeof deviceSelectionSchema>;

/** POST /api/v1/deviceSelection: how many devices a selection holds, and up to `limit` of their serials. */
export const resolveSelectionSchema = z.object(
  {
    selection: deviceSelectionSchema,
    limit: z.coerce
      .number({ error: SELECTION_MESSAGES.limit })
      .int({ error: SELECTION_MESSAGES.limit })
      .min(0, { error: SELECTION_MESSAGES.limit })
      .max(SELECTION_LIMITS.answer, { error: SELECTION_MESSAGES.limit })
      .default(0),
    /** Also count the brands and counties of its devices (the Report List's counts of a list, spec section 2). */
    counts: z.boolean({ error: SELECTION_MESSAGES.counts }).optional(),
  },
  { error: 'Send a JSON object, e.g. {"selection": {"filter": {"q": "pier"}}, "limit": 0}.' },
);
export const resolvedSelectionSchema = z.object({
  /** Devices the selection holds in the caller's scope. */
  total: z.number().int(),
  /** The first `limit` of their serials, by serial. */
  serials: z.array(z.string()),
  /**
   * Asked with `counts`: the brands and the counties among those devices (a device of no brand, or of a site
   * in no county, adds none): shared listCounts, the Report List's Brands and Counties.
   */
  brands: z.number().int().optional(),
  counties: z.number().int().optional(),
});
export type ResolvedSelection = z.infer<typeof resolvedSelectionSchema>;

/** POST /api/v1/assignBrandToSelection: every device of the selection gets this brand, in one transaction. */
export const assignBrandToSelectionSchema = z.object(
  {
    brandId: z.coerce
      .number({ error: 'brandId is a brand id.' })
      .int({ error: 'brandId is a brand id.' })
      .positive({ error: 'brandId is a brand id.' }),
    selection: deviceSelectionSchema,
  },
  { error: 'Send a JSON object, e.g. {"brandId": 2, "selection": {"filter": {"county": 7}}}.' },
);
export type AssignBrandToSelectionInput = z.infer<typeof assignBrandToSelectionSchema>;
export const assignBrandToSelectionAnswerSchema = brandAnswerSchema.extend({
  /** Devices that now have the brand (those of the selection). */
  transferred: z.number().int(),
});
