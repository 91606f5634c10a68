import { z } from 'zod';
import type { JobDefinition } from '../queue.ts';
import type { MailDeps } from './batch-recall-notice.job.ts';

/** Tells the person behind a sign-up request what a distributor decided (POST activeUser / rejectUser). */
export const signUpDecisionSchema = z.object({
  to: z.email(),
  name: z.string(),
  decision: z.enum(['activated', 'rejected']),
  /** Where to sign in (the portal's public address); only used when activated. */
  signInUrl: z.string(),
});

export const signUpDecisionJob: JobDefinition<typeof signUpDecisionSchema, MailDeps> = {
  schema: signUpDecisionSchema,
  async process(p, deps) {
    const hello = `Hello ${p.name || p.to},`;
    if (p.decision === 'activated') {
      await deps.mailer.send({
        to: p.to,
        subject: 'Your account has been activated',
        text: [
          hello,
          '',
          'Your sign-up request has been approved and your account is now active.',
          `Sign in with your email and password at ${p.signInUrl}`,
        ].join('\n'),
      });
      return;
    }
    await deps.mailer.send({
      to: p.to,
      subject: 'Your sign-up request was not approved',
      text: [
        hello,
        '',
        'Your sign-up request was not approved, so this account cannot sign in.',
        'If you think this is a mistake, please contact your distributor.',
      ].join('\n'),
    });
  },
};
