import { z } from 'zod';
import type { JobDefinition } from '../queue.ts';
import type { MailAttachment, MailDeps } from './batch-recall-notice.job.ts';

/**
 * One crew's plan for a day, mailed when the plan is published (issue 48): the stops in words and the
 * plan as a PDF, built by the server's `servicePlans` port from the stored plan. The link goes to
 * /maintenance and carries no credential: the crew signs in there with the one it was given.
 */
export const servicePlanMailSchema = z.object({
  to: z.email(),
  planId: z.number().int().positive(),
  crewId: z.number().int().positive(),
  link: z.url(),
});
export type ServicePlanMailPayload = z.output<typeof servicePlanMailSchema>;

export type ServicePlanDeps = {
  servicePlans: {
    render(planId: number, crewId: number): Promise<{ subject: string; text: string; attachments: MailAttachment[] }>;
  };
};

export const servicePlanMailJob: JobDefinition<typeof servicePlanMailSchema, MailDeps & ServicePlanDeps> = {
  schema: servicePlanMailSchema,
  attempts: 5,
  backoffMs: 1000,
  async process(p, deps) {
    const r = await deps.servicePlans.render(p.planId, p.crewId);
    await deps.mailer.send({
      to: p.to,
      subject: r.subject,
      text: `${r.text}\n\nOpen the maintenance page to record each visit: ${p.link}`,
      attachments: r.attachments,
    });
  },
};
