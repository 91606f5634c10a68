export { EmailReportDialog } from './ui/email-report-dialog';
export { emailReportOpened } from './model';
