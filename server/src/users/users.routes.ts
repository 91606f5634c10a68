import { Router } from 'express';
import { clientUserSchema } from '@fleet/shared';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { requireAccess, viewerOf } from '../auth/auth.middleware.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
import { usersRepository } from './users.repository.ts';
import { usersService } from './users.service.ts';

/** The user calls of spec section 7 (so far GET /api/v1/myUser). */
export function usersRoutes(ctx: AppContext): Routes {
  const service = usersService({ repo: usersRepository(ctx.db) });
  const router = Router();

  router.get('/myUser', requireAccess('distributor'), async (req, res) => {
    res.json(await service.listClients(viewerOf(req)));
  });

  const docs: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/myUser',
      tag: 'Users',
      summary: 'The client accounts, with their brands (distributor)',
      description:
        'Activated users of role client that are not market partners (the accounts assignBrandToClient accepts), sorted by company then name. Pending sign-ups and deactivated accounts are left out.',
      responses: {
        200: { description: 'The clients', schema: z.array(clientUserSchema) },
        403: { description: 'The caller is not a distributor' },
      },
    },
  ];
  return { router, docs };
}
