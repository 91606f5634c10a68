import type { Incident, IncidentState, Severity } from '@fleet/shared';
import { combine, createEvent, createStore, sample, type Effect } from 'effector';
import {
  acknowledgeIncidentFx,
  commentIncidentFx,
  fetchIncidentFx,
  fetchIncidentsFx,
  resolveIncidentFx,
  siteOptions,
  type IncidentFilter,
} from '../../entities/incident';
import { sessionEnded } from '../../entities/session';
import { failureMessage, fieldMessages } from '../../shared/api';
import { incidentNotifiedReceived } from '../../shared/realtime';

/**
 * The Incidents view (issue 43), opened by the bell: the caller's incidents filtered by state, severity and
 * site, and one incident's detail with its timeline and its actions (Acknowledge, Resolve with a note,
 * Comment), each answered: pending, then the incident as the server has it now, or the reason it failed
 * (a 400's message beside the field it names). A notice arriving while the view is open reloads what it shows.
 */
export const incidentsOpened = createEvent();
export const incidentsClosed = createEvent();
export const stateFilterChanged = createEvent<IncidentState | null>();
export const severityFilterChanged = createEvent<Severity | null>();
export const siteFilterChanged = createEvent<number | null>();
export const incidentSelected = createEvent<number>();
export const backToList = createEvent();
export const acknowledgeClicked = createEvent();
export const resolveSubmitted = createEvent<string>();
export const commentSubmitted = createEvent<string>();
export const retryClicked = createEvent();

export type ActionKind = 'acknowledge' | 'resolve' | 'comment';
export type ActionAnswer = { kind: ActionKind; status: 'pending' | 'done' | 'failed'; text: string };

const DONE_TEXT: Record<ActionKind, string> = {
  acknowledge: 'Acknowledged. Escalation stops.',
  resolve: 'Resolved.',
  comment: 'Comment added.',
};
const FIELD_FAILURE_TEXT: Record<ActionKind, string> = {
  acknowledge: 'Not acknowledged.',
  resolve: 'Not resolved: see the message under the note.',
  comment: 'Not added: see the message under the comment.',
};
const PENDING_TEXT: Record<ActionKind, string> = {
  acknowledge: 'Acknowledging…',
  resolve: 'Resolving…',
  comment: 'Adding the comment…',
};

export const $open = createStore(false)
  .on(incidentsOpened, () => true)
  .reset(incidentsClosed, sessionEnded);
/** Open and acknowledged incidents first: the default filter is the unresolved ones (state null: all). */
export const $filter = createStore<IncidentFilter>({ state: 'open', severity: null, siteId: null })
  .on(stateFilterChanged, (f, state) => ({ ...f, state }))
  .on(severityFilterChanged, (f, severity) => ({ ...f, severity }))
  .on(siteFilterChanged, (f, siteId) => ({ ...f, siteId }))
  .reset(sessionEnded);
export const $incidents = createStore<Incident[]>([])
  .on(fetchIncidentsFx.doneData, (_, list) => list)
  .reset(sessionEnded);
export const $listStatus = createStore<'idle' | 'loading' | 'ready' | 'failed'>('idle')
  .on(fetchIncidentsFx, (s) => (s === 'ready' ? s : 'loading'))
  .on(fetchIncidentsFx.done, () => 'ready')
  .on(fetchIncidentsFx.fail, () => 'failed')
  .reset(incidentsClosed, sessionEnded);
/** Every site met in the answers so far, for the scope filter (it keeps its choices while one site is shown). */
export const $sites = createStore<ReadonlyMap<number, string>>(new Map())
  .on(fetchIncidentsFx.doneData, (known, list) => siteOptions(known, list))
  .reset(sessionEnded);

export const $selectedId = createStore<number | null>(null)
  .on(incidentSelected, (_, id) => id)
  .reset(backToList, incidentsClosed, sessionEnded);
/** The incident shown in detail, as the last answer about it had it. */
export const $detail = createStore<Incident | null>(null).reset(backToList, incidentsClosed, incidentSelected, sessionEnded);
export const $detailStatus = createStore<'loading' | 'ready' | 'failed'>('loading')
  .on(fetchIncidentFx, (s) => (s === 'ready' ? s : 'loading'))
  .on(fetchIncidentFx.done, () => 'ready')
  .on(fetchIncidentFx.fail, (s) => (s === 'ready' ? s : 'failed'))
  .reset(incidentSelected);
export const $answer = createStore<ActionAnswer | null>(null).reset(backToList, incidentsClosed, incidentSelected);
/** A 400's messages by field (`note`, `text`): shown under that field. */
export const $fieldErrors = createStore<Record<string, string>>({}).reset(
  backToList,
  incidentsClosed,
  incidentSelected,
  resolveSubmitted,
  commentSubmitted,
);
/** Bumped after each comment added, so the form clears its text. */
export const $commentsAdded = createStore(0).on(commentIncidentFx.done, (n) => n + 1);
export const $busy = combine(
  acknowledgeIncidentFx.pending,
  resolveIncidentFx.pending,
  commentIncidentFx.pending,
  (a, r, c) => a || r || c,
);

// The list: on opening, on a filter's change, on Try again, and when a notice arrives while it is open.
sample({
  clock: [incidentsOpened, $filter.updates, retryClicked, incidentNotifiedReceived],
  source: { open: $open, filter: $filter },
  filter: ({ open }) => open,
  fn: ({ filter }) => filter,
  target: fetchIncidentsFx,
});
// The detail: when chosen, and again when a notice about it arrives.
sample({ clock: incidentSelected, target: fetchIncidentFx });
sample({
  clock: incidentNotifiedReceived,
  source: $selectedId,
  filter: (id, notice): id is number => id !== null && id === notice.id,
  fn: (id) => id as number,
  target: fetchIncidentFx,
});
sample({
  clock: fetchIncidentFx.done,
  source: $selectedId,
  filter: (id, { params }) => id === params,
  fn: (_, { result }) => result,
  target: $detail,
});

// The actions, on the incident shown, one at a time.
sample({
  clock: acknowledgeClicked,
  source: { id: $selectedId, busy: $busy },
  filter: ({ id, busy }) => id !== null && !busy,
  fn: ({ id }) => id as number,
  target: acknowledgeIncidentFx,
});
sample({
  clock: resolveSubmitted,
  source: { id: $selectedId, busy: $busy },
  filter: ({ id, busy }) => id !== null && !busy,
  fn: ({ id }, note) => ({ id: id as number, note }),
  target: resolveIncidentFx,
});
sample({
  clock: commentSubmitted,
  source: { id: $selectedId, busy: $busy },
  filter: ({ id, busy }) => id !== null && !busy,
  fn: ({ id }, text) => ({ id: id as number, text }),
  target: commentIncidentFx,
});

/** Each action answers in words (pending, done, or the reason), and its answer is the incident as it is now. */
function answered<P>(kind: ActionKind, fx: Effect<P, Incident, Error>) {
  $answer
    .on(fx, () => ({ kind, status: 'pending', text: PENDING_TEXT[kind] }))
    .on(fx.done, () => ({ kind, status: 'done', text: DONE_TEXT[kind] }))
    .on(fx.fail, (_, { error }) => ({
      kind,
      status: 'failed',
      // A 400 naming a field is said beside that field; here only that it did not happen.
      text: Object.keys(fieldMessages(error)).length ? FIELD_FAILURE_TEXT[kind] : failureMessage(error),
    }));
  $fieldErrors.on(fx.failData, (_, error) => fieldMessages(error));
  sample({
    clock: fx.doneData,
    source: $selectedId,
    filter: (id, incident) => id === incident.id,
    fn: (_, incident) => incident,
    target: $detail,
  });
  sample({
    clock: fx.done,
    source: { open: $open, filter: $filter },
    filter: ({ open }) => open,
    fn: ({ filter }) => filter,
    target: fetchIncidentsFx,
  });
}
answered('acknowledge', acknowledgeIncidentFx);
answered('resolve', resolveIncidentFx);
answered('comment', commentIncidentFx);
