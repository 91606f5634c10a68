import {
  assignBrandToSelectionAnswerSchema,
  assignBrandToSelectionSchema,
  resolvedSelectionSchema,
  resolveSelectionSchema,
} from '../schemas/device-selection.schema.ts';
import { endpoint } from './endpoint.ts';

/**
 * Selections resolved on the server (issue 46): a filter with serials added or removed
 * (shared/src/schemas/device-selection.schema.ts), always within the caller's scope. Not in the spec:
 * the spec's calls that take serials (assignBrandToDevice, the report calls) are unchanged.
 */
export const selectionsApi = {
  resolve: endpoint({
    method: 'post',
    path: '/api/v1/deviceSelection',
    tag: 'Devices',
    summary: 'How many devices a selection holds in the caller scope, and up to `limit` of their serials (issue 46)',
    description:
      'Body { selection, limit, counts? }: limit 0 (the default) counts only; at most 2000 serials, in serial order. ' +
      'counts: true also answers how many brands and counties those devices are of (the Report List counts). ' +
      'A serial outside the caller scope (or unknown, or not placed) is never selected and never named.',
    body: resolveSelectionSchema,
    responses: {
      200: { description: 'The count and the first serials', schema: resolvedSelectionSchema },
      400: { description: 'The selection is not valid (the detail names the field)' },
    },
  }),
  assignBrand: endpoint({
    method: 'post',
    path: '/api/v1/assignBrandToSelection',
    tag: 'Brands',
    roles: ['distributor'],
    summary: "Give every device of a selection this brand, in one transaction ('Add Device To {brand}', issue 46)",
    description:
      'The filter form of POST /api/v1/assignBrandToDevice (which keeps taking deviceSerials): all or nothing. ' +
      'A named serial that is unknown or outside the caller scope, or a selection of no device, answers 400 naming `selection`.',
    body: assignBrandToSelectionSchema,
    responses: {
      200: { description: 'The brand, and how many devices now have it', schema: assignBrandToSelectionAnswerSchema },
      400: { description: 'The body is not valid, or the selection holds no device (the detail names the field)' },
      404: { description: 'Unknown brand' },
    },
  }),
};
