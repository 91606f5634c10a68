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
export { browserZoneLabel, dayCount, dayCountText, defaultRange, localDay, rangeProblem, reportBody, reportFile, type ReportBody, type ReportFormat, type ReportRange } from './lib/range';
