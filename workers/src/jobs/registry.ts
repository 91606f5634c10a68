import { alertNoticeJob } from './alert-notice.job.ts';
import { batchRecallNoticeJob, type MailDeps } from './batch-recall-notice.job.ts';
import { dispensationSummaryJob } from './dispensation-summary.job.ts';
import { reportEmailJob, type ReportDeps } from './report-email.job.ts';
import { servicePlanMailJob, type ServicePlanDeps } from './service-plan-mail.job.ts';
import { reportRecipientConfirmationJob } from './report-recipient-confirmation.job.ts';
import { signUpDecisionJob } from './sign-up-decision.job.ts';

/** Every job name and its processor; start-up fails for a name without one (see queue.ts). */
export const jobs = {
  'alert-notice': alertNoticeJob,
  'batch-recall-notice': batchRecallNoticeJob,
  'dispensation-summary': dispensationSummaryJob,
  'report-email': reportEmailJob,
  'service-plan-mail': servicePlanMailJob,
  'report-recipient-confirmation': reportRecipientConfirmationJob,
  'sign-up-decision': signUpDecisionJob,
};
export type JobName = keyof typeof jobs;
export type JobDeps = MailDeps & ReportDeps & ServicePlanDeps;
