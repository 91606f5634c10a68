import { deviceRollupQuerySchema, rollupAnswerSchema } from '../schemas/rollup.schema.ts';
import { endpoint } from './endpoint.ts';

/** The dashboard's roll-ups counted by the server (issue 46; not in the spec). */
export const rollupsApi = {
  rollup: endpoint({
    method: 'get',
    path: '/api/v1/deviceRollup',
    tag: 'Devices',
    summary: 'Counts of the placed devices in the caller scope by county, site, market-partner company or batch number',
    description:
      'by=county|site|partner|batch, optionally narrowed by brand, county, partner (a company, case ignored) and batch ' +
      "(a batch number on either pump). Each row: key, name, a site's address and first device, and total, online, " +
      "offline and warning counts. Not in the spec: the dashboard's COUNTY, BRAND and Market Partner cards read it " +
      'instead of the whole device list.',
    query: deviceRollupQuerySchema,
    responses: {
      200: { description: 'The rows, in no particular order', schema: rollupAnswerSchema },
      400: { description: 'A query parameter is not valid (the detail names it)' },
    },
  }),
};
