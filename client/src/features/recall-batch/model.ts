import { formatNumber, plural, pluralWord, batchesApi } from '@fleet/shared';
import type { BatchAnswer, RecallBatchAnswer, ResumeBatchAnswer } from '@fleet/shared';
import { combine, createEvent, createStore, sample } from 'effector';
import { batchesRequested } from '../../entities/batch';
import { createDevicePageList } from '../../entities/device';
import { sessionEnded } from '../../entities/session';
import { call, createApiFx, GENERIC_FAILURE, serverReason } from '../../shared/api';
import { createResultPopup } from '../../shared/lib';

/**
 * RECALL and RESUME on a Batch List card (spec sections 2, 4, 7). Recall first asks, listing the devices
 * the batch feeds (read from the server a page at a time) and offering to pause them; the server then
 * marks the batch recalled, warns its devices (BATCH_RECALLED, pushed to every map within one poll
 * period) and queues a notice to each client company. Resume lifts the recall. Both answer with a modal
 * ('Recall batch success!', 'Resume batch success!') that lists what happened, and re-read the Batch List.
 */
export const RECALL_TEXT = {
  recalled: 'Recall batch success!',
  recallFailed: 'FAIL TO RECALL BATCH',
  resumed: 'Resume batch success!',
  resumeFailed: 'FAIL TO RESUME BATCH',
} as const;

export const recallBatchFx = createApiFx(({ id, pauseDevices }: { id: number; pauseDevices: boolean }) =>
  call(batchesApi.recall, { params: { id }, body: { pauseDevices } }),
);
export const resumeBatchFx = createApiFx((id: number) => call(batchesApi.resume, { params: { id } }));

export const recallRequested = createEvent<BatchAnswer>();
export const resumeRequested = createEvent<BatchAnswer>();
export const pauseDevicesToggled = createEvent<boolean>();
export const recallConfirmed = createEvent();
export const resumeConfirmed = createEvent();
export const recallCancelled = createEvent();

/** The batch being asked about, and which question. */
export const $recallQuestion = createStore<{ kind: 'recall' | 'resume'; batch: BatchAnswer } | null>(null)
  .on(recallRequested, (_, batch) => ({ kind: 'recall', batch }))
  .on(resumeRequested, (_, batch) => ({ kind: 'resume', batch }))
  .reset(recallCancelled, recallBatchFx.finally, resumeBatchFx.finally, sessionEnded);
export const $pauseDevices = createStore(false)
  .on(pauseDevicesToggled, (_, on) => on)
  .reset(recallRequested, sessionEnded);
export const $recallPending = combine(recallBatchFx.pending, resumeBatchFx.pending, (a, b) => a || b);
/**
 * The devices the batch in question feeds: GET /api/v1/devicePage with its number (issue 46), whose `batch`
 * filter is the server's one rule of the devices a recall pauses (fedByBatch), paged; the count is its total.
 */
export const affectedPages = createDevicePageList();
export const $affectedDevices = affectedPages.$items;
export const $affectedTotal = affectedPages.$total;
export const $affectedStatus = affectedPages.$status;
export const $affectedHasMore = affectedPages.$hasMore;
export const affectedMoreRequested = affectedPages.moreRequested;
sample({ clock: [recallRequested, resumeRequested], fn: (batch) => ({ batch: batch.batch_no }), target: affectedPages.opened });
sample({
  clock: [recallCancelled, recallBatchFx.finally, resumeBatchFx.finally, sessionEnded],
  fn: () => undefined,
  target: affectedPages.closed,
});

/** What the last recall or resume did, for its modal (kept until dismissed: it has a list to read). */
export type RecallOutcome =
  | { tone: 'success' | 'danger'; title: string; message: string | null; kind: 'recall'; answer: RecallBatchAnswer | null }
  | { tone: 'success' | 'danger'; title: string; message: string | null; kind: 'resume'; answer: ResumeBatchAnswer | null };
export const recallResult = createResultPopup<RecallOutcome>({ ms: null, resetOn: [sessionEnded] });

sample({
  clock: recallConfirmed,
  source: { question: $recallQuestion, pause: $pauseDevices, pending: $recallPending },
  filter: ({ question, pending }) => question?.kind === 'recall' && !pending,
  fn: ({ question, pause }) => ({ id: question!.batch.id, pauseDevices: pause }),
  target: recallBatchFx,
});
sample({
  clock: resumeConfirmed,
  source: { question: $recallQuestion, pending: $recallPending },
  filter: ({ question, pending }) => question?.kind === 'resume' && !pending,
  fn: ({ question }) => question!.batch.id,
  target: resumeBatchFx,
});

export function recallMessage(answer: RecallBatchAnswer): string {
  const n = answer.devices.length;
  const devices = plural(n, 'device');
  const paused = answer.paused ? ` ${formatNumber(answer.paused)} paused now.` : '';
  const mailed = answer.already_recalled
    ? ' It was already recalled: nobody was mailed again.'
    : answer.notified.length
      ? ` Notice queued for ${plural(answer.notified.length, 'client company', 'client companies')}.`
      : ' No client company to notify.';
  return `BATCH ${answer.batch.batch_no} is recalled; ${devices} ${pluralWord(n, 'warns', 'warn')} on the map.${paused}${mailed}`;
}

sample({
  clock: recallBatchFx.doneData,
  fn: (answer): RecallOutcome => ({
    tone: 'success',
    title: RECALL_TEXT.recalled,
    message: recallMessage(answer),
    kind: 'recall',
    answer,
  }),
  target: recallResult.shown,
});
sample({
  clock: resumeBatchFx.doneData,
  fn: (answer): RecallOutcome => ({ tone: 'success', title: RECALL_TEXT.resumed, message: answer.note, kind: 'resume', answer }),
  target: recallResult.shown,
});
sample({
  clock: recallBatchFx.failData,
  fn: (e): RecallOutcome => ({
    tone: 'danger',
    title: RECALL_TEXT.recallFailed,
    message: serverReason(e) ?? GENERIC_FAILURE,
    kind: 'recall',
    answer: null,
  }),
  target: recallResult.shown,
});
sample({
  clock: resumeBatchFx.failData,
  fn: (e): RecallOutcome => ({
    tone: 'danger',
    title: RECALL_TEXT.resumeFailed,
    message: serverReason(e) ?? GENERIC_FAILURE,
    kind: 'resume',
    answer: null,
  }),
  target: recallResult.shown,
});
// The card's state changes: the list is read again (the devices' warnings come by push).
sample({ clock: [recallBatchFx.done, resumeBatchFx.done], fn: () => undefined, target: batchesRequested });
