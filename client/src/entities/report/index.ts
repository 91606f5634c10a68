export {
  $enabledEmails,
  $reportEmails,
  EMAIL_SENT_MS,
  fetchReportEmailsFx,
  reportEmailRemoved,
  reportEmailsRequested,
  reportEmailsStored,
  RESULT_MS,
  type ReportEmail,
} from './model';
export {
  browserZoneLabel,
  dayCount,
  dayCountText,
  defaultRange,
  rangeProblem,
  reportBody,
  reportFile,
  type ReportBody,
  type ReportFormat,
} from './lib/range';
