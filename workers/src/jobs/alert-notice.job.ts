import { z } from 'zod';
import type { JobDefinition } from '../queue.ts';
import type { MailDeps } from './batch-recall-notice.job.ts';

/**
 * An alert's mail (server/src/alerts, the email channel): recorded in the mail outbox under the
 * notification's idempotency key (once per incident, recipient and kind), so a restart between the
 * alert's dispatch and its record sends it once.
 */
export const alertNoticeSchema = z.object({ to: z.email(), subject: z.string().max(300), text: z.string().max(20_000) });

export const alertNoticeJob: JobDefinition<typeof alertNoticeSchema, MailDeps> = {
  schema: alertNoticeSchema,
  async process(p, deps) {
    await deps.mailer.send({ to: p.to, subject: p.subject, text: p.text });
  },
};
