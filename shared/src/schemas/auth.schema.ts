import { z } from 'zod';
import { bool, email, requiredText, text } from './common.ts';
import { MESSAGES } from '../constants.ts';
import { meetsPasswordPolicy } from '../rules/password.ts';

/** POST /auth/token/login/ : the email is lowercased (spec section 5). */
export const loginSchema = z.object({
  email: email(),
  password: z
    .string({ error: (i) => (i.input === undefined ? 'This field is required.' : 'Must be a string.') })
    .min(1, { error: 'This field may not be blank.' })
    .max(128, { error: 'Ensure this field has no more than 128 characters.' }),
});
export type LoginInput = z.infer<typeof loginSchema>;
export type LoginAnswer = { auth_token: string };

/**
 * POST /auth/users/ : the sign-up payload of spec section 3. Sign up is open only as distributor
 * (company sign-up is disabled in the spec), so `role` accepts nothing else.
 * The spec writes its password policy on the reset form; sign-up holds the same policy with the same
 * message (section 5), so an account is never created with a password the reset form would refuse.
 */
export const signUpSchema = z.object({
  isEnableNotificationEmail: bool().default(false),
  isEnableNotificationPhone: bool().default(false),
  email: email(),
  username: requiredText(150),
  password: z
    .string({ error: (i) => (i.input === undefined ? 'This field is required.' : 'Must be a string.') })
    .max(128, { error: 'Ensure this field has no more than 128 characters.' })
    .refine(meetsPasswordPolicy, { error: MESSAGES.passwordPolicy }),
  role: z.literal('distributor', { error: 'Sign up is only open to distributors.' }).default('distributor'),
  company: requiredText(200),
  phone: text(32).optional().default(''),
});
export type SignUpInput = z.infer<typeof signUpSchema>;

/** POST /api/v1/resetPassword */
export const resetPasswordSchema = z.object({
  token: requiredText(200),
  password: z
    .string({ error: (i) => (i.input === undefined ? 'This field is required.' : 'Must be a string.') })
    .max(128, { error: 'Ensure this field has no more than 128 characters.' }),
});
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

/** An email in a path (requestResetPassword, checkUser). */
export const emailParamSchema = email();

/** GET /api/v1/user: the signed-in user (the schema is the answer's contract; the type is inferred from it). */
export const currentUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  username: z.string(),
  company: z.string(),
  phone: z.string(),
  role: z.string(),
  user_type: z.string(),
  access: z.enum(['distributor', 'client', 'market-partner']),
  profile_url: z.string().nullable(),
  activated: z.boolean(),
  is_enable_notification_email: z.boolean(),
  is_enable_notification_phone: z.boolean(),
  is_enable_notification_weekly_report: z.boolean(),
  is_enable_notification_daily_dispensation: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;
