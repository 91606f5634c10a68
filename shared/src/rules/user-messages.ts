/**
 * Answers of the user calls, texts as spec section 8 words them where it does. Apart from the user
 * schemas (schemas/user.schema.ts re-exports them) so that the browser, which shows these texts, does not
 * build those zod schemas as it loads.
 */
export const USER_MESSAGES = {
  activated: (email: string) => `${email} has been activated!`,
  rejected: (email: string) => `${email} has been rejected!`,
  notFound: 'No account with this email.',
  notASignUp: 'This account is not a sign-up request.',
  alreadyActive: 'This account is already active.',
  imageType: 'Upload a PNG, JPEG, GIF or WebP image.',
  imageAndRemove: 'Send a new image or isRemoveImage True, not both.',
  signUpPending: 'Your sign-up request is waiting for a distributor to approve it.',
  signUpRejected: 'Your sign-up request was not approved. Please contact your distributor.',
} as const;
