import { z } from 'zod';
import { requiredText, text } from './common.ts';

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
  /** What the Edit Account form of the client list shows besides the above. */
  profile_url: z.string().nullable(),
  is_enable_notification_email: z.boolean(),
  is_enable_notification_phone: z.boolean(),
});
export type ClientUser = z.infer<typeof clientUserSchema>;

// ---------------------------------------------------------------- sign-up requests and account edits

export { USER_MESSAGES } from '../rules/user-messages.ts';

/**
 * A user account as the user calls answer it (spec section 3, Client/user): the pending sign-ups of
 * GET /api/v1/get_pending_user and the account POST /api/v1/editUser answers. `name` and `username`
 * carry the same text (the spec uses both); `type` is the label the request list shows.
 */
export const userAccountSchema = z.object({
  id: z.number(),
  name: z.string(),
  username: z.string(),
  company: z.string(),
  email: z.string(),
  phone: z.string(),
  role: z.string(),
  user_type: z.string(),
  type: z.string(),
  activated: z.boolean(),
  rejected: z.boolean(),
  profile_url: z.string().nullable(),
  is_enable_notification_email: z.boolean(),
  is_enable_notification_phone: z.boolean(),
  is_enable_notification_weekly_report: z.boolean(),
  is_enable_notification_daily_dispensation: z.boolean(),
  created_at: z.string(),
});
export type UserAccount = z.infer<typeof userAccountSchema>;

/**
 * A notification flag of the editUser multipart body (spec section 7): 'True', 'False' or 'None',
 * where 'None' (or leaving the field out) keeps the stored value. Case is not significant.
 */
const flag = () =>
  z
    .string({ error: 'Must be True, False or None.' })
    .trim()
    .toLowerCase()
    .pipe(z.enum(['true', 'false', 'none'], { error: 'Must be True, False or None.' }))
    .transform((v) => (v === 'none' ? undefined : v === 'true'))
    .optional();

/**
 * The text fields of POST /api/v1/editUser/{email} (multipart). Every field is optional: what is left
 * out stays as it is. The email is the path's and never changes here (it is the sign-in name).
 */
export const editUserFieldsSchema = z.object({
  username: requiredText(150).optional(),
  company: requiredText(200).optional(),
  phone: text(32).optional(),
  isEnableNotificationEmail: flag(),
  isEnableNotificationPhone: flag(),
  isEnableNotificationWeeklyReport: flag(),
  isEnableNotificationDailyDispensation: flag(),
  isRemoveImage: flag(),
});
export type EditUserFields = z.infer<typeof editUserFieldsSchema>;

/** The multipart body as documented in OpenAPI (the file is binary). */
export const editUserMultipartSchema = z.object({
  username: z.string().max(150).optional(),
  company: z.string().max(200).optional(),
  phone: z.string().max(32).optional(),
  isEnableNotificationEmail: z.enum(['True', 'False', 'None']).optional(),
  isEnableNotificationPhone: z.enum(['True', 'False', 'None']).optional(),
  isEnableNotificationWeeklyReport: z.enum(['True', 'False', 'None']).optional(),
  isEnableNotificationDailyDispensation: z.enum(['True', 'False', 'None']).optional(),
  isRemoveImage: z.enum(['True', 'False', 'None']).optional().describe('True removes the profile image'),
  image: z.file().describe('Profile image: PNG, JPEG, GIF or WebP, at most 2 MB (checked by content)').optional(),
});

/** POST /api/v1/activeUser/{email} and /api/v1/rejectUser/{email}. */
export const signUpDecisionAnswerSchema = z.object({ detail: z.string(), user: userAccountSchema, already: z.boolean() });
export type SignUpDecisionAnswer = z.infer<typeof signUpDecisionAnswerSchema>;
