export {
  $enabledEmails,
  $reportEmails,
  $reportEmailsStatus,
  createResultTimerFx,
  EMAIL_SENT_MS,
  fetchReportEmailsFx,
  reportEmailRemoved,
  reportEmailsRequested,
  reportEmailsStored,
  RESULT_MS,
  type ReportEmail,
  type ReportResult,
} from './model';
export { dayCount, dayCountText, defaultRange, localDay, rangeProblem, reportBody, reportFile, type ReportBody, type ReportFormat, type ReportRange } from './lib/range';
export { ResultPopup } from './ui/result-popup';
