import { createEvent, createStore, sample } from 'effector';
import { fetchInboxFx, markReadFx, type Inbox } from '../../entities/incident';
import { sessionEnded } from '../../entities/session';
import { incidentNotifiedReceived, socketConnected, type IncidentNotifiedPayload } from '../../shared/realtime';

/**
 * The bell (issue 43): the unread count of the user's in-app notices, read once over REST when the map
 * screen shows and after a reconnect (notices pushed while disconnected were never received), then kept
 * live by the socket's `incident:notified`. A notice is counted once by its `notificationId`: one sent twice
 * (a worker restarted between sending and recording it) is the same notice. Opening the bell marks them read.
 */
export const bellStarted = createEvent();
export const bellClicked = createEvent();

export const $unread = createStore(0);
/** The notices counted already, by their row id. */
const $counted = createStore<ReadonlySet<number>>(new Set(), { serialize: 'ignore' });
/** The newest notice received live, said once by the bell's live region. */
export const $latestNotice = createStore<IncidentNotifiedPayload | null>(null);

const noticeCounted = createEvent<IncidentNotifiedPayload>();

const fromInbox = (inbox: Inbox) => new Set(inbox.items.map((n) => n.id));

$unread
  .on(fetchInboxFx.doneData, (_, inbox) => inbox.unread)
  .on(markReadFx.doneData, (_, inbox) => inbox.unread)
  .on(noticeCounted, (n) => n + 1)
  .reset(sessionEnded);
$counted
  .on(fetchInboxFx.doneData, (_, inbox) => fromInbox(inbox))
  .on(noticeCounted, (set, notice) => new Set([...set, notice.notificationId]))
  .reset(sessionEnded);
$latestNotice.on(noticeCounted, (_, notice) => notice).reset(sessionEnded);

sample({ clock: bellStarted, target: fetchInboxFx });
sample({ clock: socketConnected, filter: ({ reconnect }) => reconnect, fn: () => undefined, target: fetchInboxFx });
sample({
  clock: incidentNotifiedReceived,
  source: $counted,
  filter: (counted, notice) => !counted.has(notice.notificationId),
  fn: (_, notice) => notice,
  target: noticeCounted,
});
sample({ clock: bellClicked, fn: () => null, target: markReadFx });
