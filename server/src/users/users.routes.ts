import { Router } from 'express';
import { clientUserSchema, editUserMultipartSchema, signUpDecisionAnswerSchema, userAccountSchema } from '@fleet/shared';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { requireAccess, viewerOf } from '../auth/index.ts';
import { imageUpload, localImageStore, uploadedImage } from '../brands/index.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
import { usersRepository } from './users.repository.ts';
import { usersService } from './users.service.ts';

/** The user calls of spec section 7: clients, sign-up requests and their decisions, account edits. */
export function usersRoutes(ctx: AppContext): Routes {
  const service = usersService({
    repo: usersRepository(ctx.db),
    images: localImageStore(ctx.uploadsDir, 'profiles'),
    queue: ctx.queue,
    publicUrl: ctx.config.publicUrl,
    now: ctx.now,
    log: ctx.log,
  });
  const router = Router();
  const distributorOnly = requireAccess('distributor');

  router.get('/myUser', distributorOnly, async (req, res) => {
    res.json(await service.listClients(viewerOf(req)));
  });
  router.get('/get_pending_user', distributorOnly, async (req, res) => {
    res.json(await service.listPending(viewerOf(req)));
  });
  // Anyone signed in may call it (their own account); the service decides whose account it may be.
  router.post('/editUser/:email', imageUpload('image'), async (req, res) => {
    res.json(await service.edit(viewerOf(req), req.params.email, req.body, uploadedImage(req)));
  });
  router.post('/activeUser/:email', distributorOnly, async (req, res) => {
    res.json(await service.activate(viewerOf(req), req.params.email));
  });
  router.post('/rejectUser/:email', distributorOnly, async (req, res) => {
    res.json(await service.reject(viewerOf(req), req.params.email));
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
    {
      method: 'get',
      path: '/api/v1/get_pending_user',
      tag: 'Users',
      summary: 'The sign-up requests waiting for a decision (distributor)',
      description:
        'Accounts not activated, not rejected and not deactivated for an overdue invoice, oldest first. `type` is Client: what an activated request becomes.',
      responses: {
        200: { description: 'The sign-up requests', schema: z.array(userAccountSchema) },
        403: { description: 'The caller is not a distributor' },
      },
    },
    {
      method: 'post',
      path: '/api/v1/editUser/:email',
      tag: 'Users',
      summary: 'Edit an account: own (Account Settings), or as a distributor a sign-up request or a client',
      description:
        "Multipart. Every field is optional; notification flags are 'True', 'False' or 'None' ('None' or absent keeps the value). The email never changes. `image` is checked by content like a brand logo (PNG, JPEG, GIF or WebP, at most 2 MB); isRemoveImage 'True' removes the profile image. 403 for another person's account you may not edit, 404 for an unknown email.",
      multipart: editUserMultipartSchema,
      responses: {
        200: { description: 'The account as saved', schema: userAccountSchema },
        404: { description: 'No account with this email' },
        413: { description: 'Image larger than 2 MB' },
      },
    },
    decisionDoc(
      'activeUser',
      'Activate Account: approve a sign-up request; it becomes a client account (distributor)',
      "Answers '{email} has been activated!'. The person is mailed once (a repeated call changes and mails nothing, `already` true). A rejected request may still be activated; an account deactivated for an overdue invoice cannot (400).",
      '{email} has been activated!',
    ),
    decisionDoc(
      'rejectUser',
      'Reject a sign-up request: it leaves the list and cannot sign in (distributor)',
      "Answers '{email} has been rejected!'. The person is mailed once; a repeated call changes and mails nothing (`already` true). An active account is not a request (400).",
      '{email} has been rejected!',
    ),
  ];
  return { router, docs };
}

/** The two sign-up decisions answer and fail alike. */
function decisionDoc(call: string, summary: string, description: string, answer: string): RouteDoc {
  return {
    method: 'post',
    path: `/api/v1/${call}/:email`,
    tag: 'Users',
    summary,
    description,
    responses: {
      200: { description: answer, schema: signUpDecisionAnswerSchema },
      400: { description: 'Not a sign-up request' },
      404: { description: 'No account with this email' },
    },
  };
}
