import { MESSAGES } from '../constants.ts';

/** Spec section 5, reset password: 8+ characters with an uppercase, a lowercase and a digit. */
export function meetsPasswordPolicy(password: string): boolean {
  return password.length >= 8 && /[A-Z]/.test(password) && /[a-z]/.test(password) && /\d/.test(password);
}

/**
 * The reset form's check, shared by client and server. Both fields must meet the policy first
 * (the spec's order), then they must match. Returns the spec's message, or null when valid.
 */
export function resetPasswordProblem(password: string, repeat: string): string | null {
  if (!meetsPasswordPolicy(password) || !meetsPasswordPolicy(repeat)) return MESSAGES.passwordPolicy;
  if (password !== repeat) return MESSAGES.passwordMismatch;
  return null;
}
