import { z } from 'zod';

/**
 * A client account as GET /api/v1/myUser lists it (spec sections 3 and 7: clients with email and
 * brands): the accounts a distributor may assign a brand to, each with the brands it already has.
 */
export const clientUserSchema = z.object({
  id: z.number(),
  name: z.string(),
  company: z.string(),
  email: z.string(),
  phone: z.string(),
  brands: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type ClientUser = z.infer<typeof clientUserSchema>;
