import { usersApi } from '@fleet/shared';
import type { ClientUser, UserAccount } from '@fleet/shared';
import { createEvent, createStore, sample, type Effect } from 'effector';
import { call, createApiFx } from '../../shared/api';

/**
 * The client accounts of GET /api/v1/myUser (spec section 7: clients with email and brands), a
 * distributor's call: every activated client, a client with no brand yet included.
 */
export const clientUsersRequested = createEvent();
/** The session ended: nothing of the last user's client list stays. */
export const clientUsersCleared = createEvent();
export const fetchClientUsersFx = createApiFx<void, ClientUser[]>(() => call(usersApi.clients));

export const $clientUsers = createStore<ClientUser[]>([]);
$clientUsers.on(fetchClientUsersFx.doneData, (_, list) => list).reset(clientUsersCleared);
sample({ clock: clientUsersRequested, fn: () => undefined, target: fetchClientUsersFx });

export type ListStatus = 'idle' | 'loading' | 'ready' | 'failed';
/** Loading only until the first answer: a refresh keeps the list on screen instead of a spinner. */
const statusOf = <R>(fx: Effect<void, R, Error>, reset: typeof clientUsersCleared) =>
  createStore<ListStatus>('idle')
    .on(fx, (status) => (status === 'ready' ? status : 'loading'))
    .on(fx.done, () => 'ready')
    .on(fx.fail, () => 'failed')
    .reset(reset);

/** GET /api/v1/get_pending_user: the sign-up requests waiting for a distributor (spec section 4). */
export const pendingUsersRequested = createEvent();
export const fetchPendingUsersFx = createApiFx<void, UserAccount[]>(() => call(usersApi.pending));
/**
 * A request was activated or rejected: it leaves the list at once, with the popup that says so, instead of
 * when the list read after the decision answers (until then the decided row still showed, with its View
 * Detail button).
 */
export const pendingUserDecided = createEvent<string>();
export const $pendingUsers = createStore<UserAccount[]>([]);
$pendingUsers
  .on(fetchPendingUsersFx.doneData, (_, list) => list)
  .on(pendingUserDecided, (list, email) => list.filter((u) => u.email !== email))
  .reset(clientUsersCleared);
sample({ clock: pendingUsersRequested, fn: () => undefined, target: fetchPendingUsersFx });

export const $clientUsersStatus = statusOf(fetchClientUsersFx, clientUsersCleared);
export const $pendingUsersStatus = statusOf(fetchPendingUsersFx, clientUsersCleared);

export type ClientChoice = { email: string; name: string; company: string; label: string };

/** The clients a brand may be given, once each, as a select lists them. */
export function clientChoices(clients: readonly Pick<ClientUser, 'email' | 'name' | 'company'>[]): ClientChoice[] {
  const byEmail = new Map<string, Omit<ClientChoice, 'label'>>();
  for (const c of clients) if (!byEmail.has(c.email)) byEmail.set(c.email, { email: c.email, name: c.name, company: c.company });
  const list = [...byEmail.values()];
  const short = (c: Omit<ClientChoice, 'label'>) => c.company.trim() || c.name.trim() || c.email;
  // The company reads best in a narrow select; the email tells two clients of one company apart.
  const shared = (c: Omit<ClientChoice, 'label'>) =>
    list.filter((x) => short(x).toLowerCase() === short(c).toLowerCase()).length > 1;
  return list
    .map((c) => ({
      ...c,
      label:
        shared(c) || short(c) === c.email ? `${short(c)} (${c.email})`.replace(`${c.email} (${c.email})`, c.email) : short(c),
    }))
    .sort((a, b) => a.label.localeCompare(b.label));
}
export const $clientChoices = $clientUsers.map(clientChoices);
