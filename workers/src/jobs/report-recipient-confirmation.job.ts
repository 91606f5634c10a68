import { z } from 'zod';
import type { JobDefinition } from '../queue.ts';
import type { MailDeps } from './batch-recall-notice.job.ts';

/**
 * Asks an address added to someone's Email List for Report whether it wants their reports (issue 42): no
 * report reaches it before its confirmation link is opened. Sent through the mail outbox like every mail.
 */
export const reportRecipientConfirmationSchema = z.object({
  to: z.email(),
  /** The name the list gives the recipient. */
  name: z.string(),
  /** Who added the address: their name and email, so the recipient knows whom it is agreeing to. */
  requestedBy: z.string(),
  confirmUrl: z.string(),
});

export const reportRecipientConfirmationJob: JobDefinition<typeof reportRecipientConfirmationSchema, MailDeps> = {
  schema: reportRecipientConfirmationSchema,
  async process(p, deps) {
    await deps.mailer.send({
      to: p.to,
      subject: 'Confirm to receive fleet portal reports',
      text: [
        `Hello ${p.name || p.to},`,
        '',
        `${p.requestedBy} added this address to their Email List for Report on the fleet portal.`,
        'To receive their reports by email, confirm with this link:',
        p.confirmUrl,
        '',
        'If you do not know them or do not want their reports, ignore this mail: no report is sent to this address until it is confirmed.',
      ].join('\n'),
    });
  },
};
