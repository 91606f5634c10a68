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

/** GET /api/v1/user */
export type CurrentUser = {
  id: number;
  email: string;
  username: string;
  company: string;
  phone: string;
  role: string;
  user_type: string;
  access: 'distributor' | 'client' | 'market-partner';
  profile_url: string | null;
  activated: boolean;
  is_enable_notification_email: boolean;
  is_enable_notification_phone: boolean;
  is_enable_notification_weekly_report: boolean;
  is_enable_notification_daily_dispensation: boolean;
};
