import { z } from 'zod';
import {
  clientUserSchema,
  editUserMultipartSchema,
  signUpDecisionAnswerSchema,
  userAccountSchema,
} from '../schemas/user.schema.ts';
import { endpoint } from './endpoint.ts';

const tag = 'Users';
const distributor = { roles: ['distributor'] } as const;
/** The two sign-up decisions answer and fail alike. */
const decision = (answer: string) =>
  ({
    200: { description: answer, schema: signUpDecisionAnswerSchema },
    400: { description: 'Not a sign-up request' },
    404: { description: 'No account with this email' },
  }) as const;

/** The user calls of spec section 7: clients, sign-up requests and their decisions, account edits. */
export const usersApi = {
  clients: endpoint({
    method: 'get',
    path: '/api/v1/myUser',
    tag,
    ...distributor,
    summary: 'The client accounts, with their brands (distributor)',
    description:
      'Activated users of role client that are not market partners (the accounts assignBrandToClient accepts), sorted by company then name. Pending sign-ups and deactivated accounts are left out.',
    responses: {
      200: { description: 'The clients', schema: z.array(clientUserSchema) },
      403: { description: 'The caller is not a distributor' },
    },
  }),
  pending: endpoint({
    method: 'get',
    path: '/api/v1/get_pending_user',
    tag,
    ...distributor,
    summary: 'The sign-up requests waiting for a decision (distributor)',
    description:
      'Accounts not activated, not rejected and not deactivated for an overdue invoice, oldest first. `type` is Client: what an activated request becomes.',
    responses: {
      200: { description: 'The sign-up requests', schema: z.array(userAccountSchema) },
      403: { description: 'The caller is not a distributor' },
    },
  }),
  edit: endpoint({
    method: 'post',
    path: '/api/v1/editUser/:email',
    tag,
    // Anyone signed in may call it (their own account); the service decides whose account it may be.
    summary: 'Edit an account: own (Account Settings), or as a distributor a sign-up request or a client',
    description:
      "Multipart. Every field is optional; notification flags are 'True', 'False' or 'None' ('None' or absent keeps the value). The email never changes. `image` is checked by content like a brand logo (PNG, JPEG, GIF or WebP, at most 2 MB); isRemoveImage 'True' removes the profile image. 403 for another person's account you may not edit, 404 for an unknown email.",
    multipart: editUserMultipartSchema,
    responses: {
      200: { description: 'The account as saved', schema: userAccountSchema },
      404: { description: 'No account with this email' },
      413: { description: 'Image larger than 2 MB' },
    },
  }),
  activate: endpoint({
    method: 'post',
    path: '/api/v1/activeUser/:email',
    tag,
    ...distributor,
    summary: 'Activate Account: approve a sign-up request; it becomes a client account (distributor)',
    description:
      "Answers '{email} has been activated!'. The person is mailed once (a repeated call changes and mails nothing, `already` true). A rejected request may still be activated; an account deactivated for an overdue invoice cannot (400).",
    responses: decision('{email} has been activated!'),
  }),
  reject: endpoint({
    method: 'post',
    path: '/api/v1/rejectUser/:email',
    tag,
    ...distributor,
    summary: 'Reject a sign-up request: it leaves the list and cannot sign in (distributor)',
    description:
      "Answers '{email} has been rejected!'. The person is mailed once; a repeated call changes and mails nothing (`already` true). An active account is not a request (400).",
    responses: decision('{email} has been rejected!'),
  }),
};
