import { REPORT_MESSAGES, reportsApi } from '@fleet/shared';
import { createEffect, createEvent, createStore, merge, sample } from 'effector';
import { $enabledEmails, EMAIL_SENT_MS, fetchReportEmailsFx, rangeProblem, type ReportBody } from '../../entities/report';
import { sessionEnded } from '../../entities/session';
import { call, createApiFx, failureMessage, HttpError } from '../../shared/api';
import { createSeqTimerFx } from '../../shared/lib';

/**
 * The email report dialog (spec section 2 popups, 5, 8 and 9): 'Send email?' No/Yes, 'Sending Email',
 * then 'Email has been sent !' (closes after 1 s) or 'Email Failed to Sent !'. It mails the enabled
 * addresses of the Email List for Report; with none it answers 'Email List Empty !' and sends nothing.
 * One request id is made when the question opens and sent with Yes and with every Try again, so a double
 * click or a retry is the same request to POST /api/v1/emailReport, which mails nobody twice.
 *
 * Opened while the Email List is being read again (the Report List re-reads it each time it opens), the
 * dialog waits for that read ('reading') and then asks with the list it answered: the question never
 * names, or refuses for, a list that is about to change.
 */
export type EmailStep = 'closed' | 'reading' | 'empty' | 'confirm' | 'sending' | 'sent' | 'error';

export const EMAIL_TEXT = {
  confirm: 'Send email?',
  sending: 'Sending Email',
  sent: 'Email has been sent !',
  failed: 'Email Failed to Sent !',
  listEmpty: REPORT_MESSAGES.emailListEmpty,
  emailSent: 'Email Sent !',
  reading: 'Reading the Email List for Report…',
} as const;

export const emailReportOpened = createEvent<ReportBody>();
export const sendConfirmed = createEvent();
export const emailDialogClosed = createEvent();

export const newRequestIdFx = createEffect(() =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `r-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`,
);
export const sendReportFx = createApiFx((input: ReportBody & { emails: string[]; requestId: string }) => {
  const problem = rangeProblem({ startDate: input.startDate.slice(0, 10), endDate: input.endDate.slice(0, 10) });
  if (problem) return Promise.reject(new Error(problem));
  return call(reportsApi.emailReport, { body: input });
});
export const sentTimerFx = createSeqTimerFx(EMAIL_SENT_MS);

export const $step = createStore<EmailStep>('closed');
export const $body = createStore<ReportBody | null>(null);
export const $requestId = createStore<string | null>(null);
export const $recipients = createStore<string[]>([]);
export const $error = createStore<string | null>(null);
const $seq = createStore(0);

/** 400 { emails: ['Email List Empty !'] }: the list was emptied elsewhere meanwhile. */
const isListEmpty = (error: unknown) =>
  error instanceof HttpError &&
  error.status === 400 &&
  JSON.stringify((error.body as { emails?: unknown })?.emails ?? '').includes(REPORT_MESSAGES.emailListEmpty);

/** Opened while the list is being read: wait for the answer. */
const waiting = sample({
  clock: emailReportOpened,
  source: fetchReportEmailsFx.pending,
  filter: (pending) => pending,
  fn: () => undefined,
});
/** The enabled addresses to ask about: at once when no read is running, else when the read settles. */
const opened = merge([
  sample({
    clock: emailReportOpened,
    source: { emails: $enabledEmails, pending: fetchReportEmailsFx.pending },
    filter: ({ pending }) => !pending,
    fn: ({ emails }) => ({ emails }),
  }),
  sample({
    clock: fetchReportEmailsFx.finally,
    source: { emails: $enabledEmails, step: $step },
    filter: ({ step }) => step === 'reading',
    fn: ({ emails }) => ({ emails }),
  }),
]);
$body.on(emailReportOpened, (_, body) => body).reset(emailDialogClosed, sessionEnded);
$recipients.on(opened, (_, { emails }) => emails).reset(emailDialogClosed, sessionEnded);
$step
  .on(waiting, () => 'reading')
  .on(opened, (_, { emails }) => (emails.length === 0 ? 'empty' : 'confirm'))
  .on(sendReportFx, () => 'sending')
  .on(sendReportFx.done, () => 'sent')
  .on(sendReportFx.failData, (_, error) => (isListEmpty(error) ? 'empty' : 'error'))
  .reset(emailDialogClosed, sessionEnded);
$error
  .on(sendReportFx.failData, (_, error) => failureMessage(error))
  .reset(emailReportOpened, sendReportFx, emailDialogClosed, sessionEnded);
$requestId.on(newRequestIdFx.doneData, (_, id) => id).reset(emailDialogClosed, sessionEnded);
$seq.on(sendReportFx.done, (n) => n + 1);

// A fresh request id for each question; Yes and each Try again reuse it.
sample({ clock: opened, filter: ({ emails }) => emails.length > 0, fn: () => undefined, target: newRequestIdFx });
sample({
  clock: sendConfirmed,
  source: { step: $step, body: $body, emails: $recipients, requestId: $requestId },
  filter: ({ step, body, requestId }) => (step === 'confirm' || step === 'error') && body !== null && requestId !== null,
  fn: ({ body, emails, requestId }) => ({ ...body!, emails, requestId: requestId! }),
  target: sendReportFx,
});
sample({ clock: sendReportFx.done, source: $seq, target: sentTimerFx });
// Closes after 1 s, unless something newer is on show.
sample({
  clock: sentTimerFx.doneData,
  source: { step: $step, seq: $seq },
  filter: ({ step, seq }, done) => step === 'sent' && seq === done,
  fn: () => undefined,
  target: emailDialogClosed,
});
