import { reportsApi } from '@fleet/shared';
import { createEffect, createEvent, createStore, sample } from 'effector';
import { rangeProblem, reportFile, type ReportBody, type ReportFormat } from '../../entities/report';
import { sessionEnded } from '../../entities/session';
import { call, callBlob, createApiFx, failureMessage } from '../../shared/api';

/**
 * The report download dialog (spec section 2 popups, section 7): choose PDF or EXCEL, a loading state,
 * then 'Report has been downloaded !' or 'Report Failed to download !' with the reason. EXCEL is
 * POST /api/v1/downloadReport; PDF is POST /api/v1/report whose answer goes to POST /api/pdf. The file is
 * saved as the spec names it ('<start>-<end>', dates YYYY/MMM/DD, '_' for the slashes). The spec's browser
 * alert on failure is the error state of the dialog itself: a modal alert would say the same thing twice.
 */
export type DownloadStep = 'closed' | 'choose' | 'loading' | 'done' | 'error';

export const DOWNLOAD_TEXT = {
  title: 'Download Report',
  choose: 'Choose the file type.',
  loading: 'Loading',
  done: 'Report has been downloaded !',
  failed: 'Report Failed to download !',
} as const;

export const reportDownloadOpened = createEvent<ReportBody>();
export const formatChosen = createEvent<ReportFormat>();
export const downloadClosed = createEvent();

/** A binary answer of an authenticated POST, or HttpError with the server's JSON reason. */
/** Hands a file to the browser's download manager. */
export const saveFileFx = createEffect(({ blob, fileName }: { blob: Blob; fileName: string }) => {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Let the download start before the address is released.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return fileName;
});

export const fetchReportFileFx = createApiFx(async ({ format, body }: { format: ReportFormat; body: ReportBody }) => {
  const problem = rangeProblem({ startDate: body.startDate.slice(0, 10), endDate: body.endDate.slice(0, 10) });
  if (problem) throw new Error(problem);
  if (format === 'xlsx') return { blob: await callBlob(reportsApi.downloadReport, { body }), fileName: reportFile(body, 'xlsx') };
  const data = await call(reportsApi.report, { body });
  return { blob: await callBlob(reportsApi.pdf, { body: data }), fileName: reportFile(body, 'pdf') };
});

export const $step = createStore<DownloadStep>('closed');
export const $body = createStore<ReportBody | null>(null);
export const $format = createStore<ReportFormat | null>(null);
export const $error = createStore<string | null>(null);
export const $fileName = createStore<string | null>(null);

$step
  .on(reportDownloadOpened, () => 'choose')
  .on(fetchReportFileFx, () => 'loading')
  .on(saveFileFx.done, () => 'done')
  .on(fetchReportFileFx.fail, () => 'error')
  .on(saveFileFx.fail, () => 'error')
  .reset(downloadClosed, sessionEnded);
$body.on(reportDownloadOpened, (_, body) => body).reset(downloadClosed, sessionEnded);
$format.on(formatChosen, (_, format) => format).reset(reportDownloadOpened, downloadClosed, sessionEnded);
$error
  .on(fetchReportFileFx.failData, (_, error) => failureMessage(error))
  .on(saveFileFx.failData, (_, error) => failureMessage(error))
  .reset(reportDownloadOpened, fetchReportFileFx, downloadClosed, sessionEnded);
$fileName.on(saveFileFx.doneData, (_, name) => name).reset(reportDownloadOpened, downloadClosed, sessionEnded);

// A choice while a file is on its way (a double click) starts nothing more.
sample({
  clock: formatChosen,
  source: { body: $body, step: $step },
  filter: ({ body, step }) => body !== null && step !== 'loading',
  fn: ({ body }, format) => ({ format, body: body! }),
  target: fetchReportFileFx,
});
// An answer for a dialog that was closed meanwhile is not saved.
sample({
  clock: fetchReportFileFx.doneData,
  source: $step,
  filter: (step) => step === 'loading',
  fn: (_, file) => file,
  target: saveFileFx,
});
