import type { ClientUser } from '@fleet/shared';
import { createEvent, createStore, sample } from 'effector';
import { createApiFx, http } from '../../shared/api';

/**
 * The client accounts of GET /api/v1/myUser (spec section 7: clients with email and brands), a
 * distributor's call: every activated client, a client with no brand yet included.
 */
export const clientUsersRequested = createEvent();
/** The session ended: nothing of the last user's client list stays. */
export const clientUsersCleared = createEvent();
export const fetchClientUsersFx = createApiFx<void, ClientUser[]>(() => http<ClientUser[]>('/api/v1/myUser'));

export const $clientUsers = createStore<ClientUser[]>([]);
$clientUsers.on(fetchClientUsersFx.doneData, (_, list) => list).reset(clientUsersCleared);
sample({ clock: clientUsersRequested, fn: () => undefined, target: fetchClientUsersFx });

export type ClientChoice = { email: string; name: string; company: string; label: string };

/** The clients a brand may be given, once each, as a select lists them. */
export function clientChoices(clients: readonly Pick<ClientUser, 'email' | 'name' | 'company'>[]): ClientChoice[] {
  const byEmail = new Map<string, Omit<ClientChoice, 'label'>>();
  for (const c of clients) if (!byEmail.has(c.email)) byEmail.set(c.email, { email: c.email, name: c.name, company: c.company });
  const list = [...byEmail.values()];
  const short = (c: Omit<ClientChoice, 'label'>) => c.company.trim() || c.name.trim() || c.email;
  // The company reads best in a narrow select; the email tells two clients of one company apart.
  const shared = (c: Omit<ClientChoice, 'label'>) => list.filter((x) => short(x).toLowerCase() === short(c).toLowerCase()).length > 1;
  return list.map((c) => ({ ...c, label: shared(c) || short(c) === c.email ? `${short(c)} (${c.email})`.replace(`${c.email} (${c.email})`, c.email) : short(c) })).sort((a, b) => a.label.localeCompare(b.label));
}
export const $clientChoices = $clientUsers.map(clientChoices);
