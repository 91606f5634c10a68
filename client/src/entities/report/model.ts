import { reportsApi } from '@fleet/shared';
import type { ReportEmailAnswer } from '@fleet/shared';
import { createEvent, createStore, sample } from 'effector';
import { sessionEnded } from '../session';
import { call, createApiFx } from '../../shared/api';

/**
 * The caller's Email List for Report (GET /api/v1/email): read by Email Setup, which edits it, and by the
 * email report, which mails its enabled addresses (spec section 5: email goes only to enabled recipients).
 */
export type ReportEmail = ReportEmailAnswer;

export const reportEmailsRequested = createEvent();
/** Rows added or changed by Email Setup (their server answers). */
export const reportEmailsStored = createEvent<ReportEmail[]>();
export const reportEmailRemoved = createEvent<number>();

export const fetchReportEmailsFx = createApiFx(() => call(reportsApi.emails));

export const $reportEmails = createStore<ReportEmail[]>([])
  .on(fetchReportEmailsFx.doneData, (_, list) => list)
  .on(reportEmailsStored, (list, rows) => {
    const byId = new Map(rows.map((row) => [row.id, row]));
    const kept = list.map((e) => byId.get(e.id) ?? e);
    return [...kept, ...rows.filter((row) => !list.some((e) => e.id === row.id))];
  })
  .on(reportEmailRemoved, (list, id) => list.filter((e) => e.id !== id))
  .reset(sessionEnded);
export const $enabledEmails = $reportEmails.map((list) => list.filter((e) => e.is_enable).map((e) => e.email));

sample({ clock: reportEmailsRequested, fn: () => undefined, target: fetchReportEmailsFx });

/** Result popups close themselves (spec section 4: 1 to 2 s); the email report's after 1 s (section 9). */
export const RESULT_MS = 1500;
export const EMAIL_SENT_MS = 1000;
