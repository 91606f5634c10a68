import { z } from 'zod';

/**
 * GET /api/v1/deviceRollup (issue 46): the dashboard's roll-ups counted by the server, so the browser never
 * reads the fleet to draw the COUNTY, BRAND and Market Partner cards. `by` names what a row stands for:
 * a county, a site (device group), a market-partner company, or a batch number feeding a device.
 */
export const ROLLUP_GROUPS = ['county', 'site', 'partner', 'batch'] as const;
export type RollupGroup = (typeof ROLLUP_GROUPS)[number];

const id = (name: string) =>
  z.coerce
    .number({ error: `${name} is a ${name} id.` })
    .int({ error: `${name} is a ${name} id.` })
    .positive({ error: `${name} is a ${name} id.` })
    .optional();

export const deviceRollupQuerySchema = z.object({
  by: z.enum(ROLLUP_GROUPS, { error: `by is one of ${ROLLUP_GROUPS.join(', ')}.` }),
  /** Only devices of this brand (a brand's county cards). */
  brand: id('brand'),
  /** Only devices in this county (a county's sites). */
  county: id('county'),
  /** Only devices of this market-partner company, its name compared ignoring case (a company's counties). */
  partner: z
    .string()
    .max(200, { error: 'partner is at most 200 characters.' })
    .transform((text) => text.trim().toLowerCase())
    .optional(),
  /** Only devices fed by a batch of this number, on either pump (the COUNTY tab's Batch filter). */
  batch: z.string().max(100, { error: 'batch is at most 100 characters.' }).optional(),
});
export type DeviceRollupQuery = z.infer<typeof deviceRollupQuerySchema>;

const count = z.number().int().nonnegative();
/** One card of a roll-up: what it stands for and the counts of the caller's devices in it. */
export const rollupRowSchema = z.object({
  /** county: its id; site: its id; partner: the company name lower-cased; batch: the batch number. */
  key: z.string(),
  /** county: its name; site: its name; partner: the company as written (first by case); batch: the number. */
  name: z.string(),
  /** A site's address (null for the other groups). */
  address: z.string().nullable(),
  /** A site's first device (by number, then serial) and its label: the device a site card opens. */
  serial: z.string().nullable(),
  label: z.string().nullable(),
  total: count,
  online: count,
  offline: count,
  warning: count,
});
export type RollupRow = z.infer<typeof rollupRowSchema>;
export const rollupAnswerSchema = z.object({ rows: z.array(rollupRowSchema) });
export type RollupAnswer = z.infer<typeof rollupAnswerSchema>;
