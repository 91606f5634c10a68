import { alertNoticeJob } from './alert-notice.job.ts';
import { batchRecallNoticeJob, type MailDeps } from './batch-recall-notice.job.ts';
import { dispensationSummaryJob } from './dispensation-summary.job.ts';
import { reportEmailJob, type ReportDeps } from './report-email.job.ts';
import { signUpDecisionJob } from './sign-up-decision.job.ts';

/** Every job name and its processor; start-up fails for a name without one (see queue.ts). */
export const jobs = {
  'alert-notice': alertNoticeJob,
  'batch-recall-notice': batchRecallNoticeJob,
  'dispensation-summary': dispensationSummaryJob,
  'report-email': reportEmailJob,
  'sign-up-decision': signUpDecisionJob,
};
export type JobName = keyof typeof jobs;
export type JobDeps = MailDeps & ReportDeps;
