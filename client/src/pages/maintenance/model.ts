import { plural } from '@fleet/shared';
import type { MaintenanceAction, MaintenanceDevice } from '@fleet/shared';
import { createEffect, createEvent, createStore, sample } from 'effector';
import {
  MAINTENANCE_CREDENTIAL_KEY,
  maintenanceApi,
  outbox,
  readStoredCredential,
  type OutboxEntry,
} from '../../entities/maintenance';
import { failureMessage, HttpError } from '../../shared/api';
import { createResultPopup } from '../../shared/lib';
import { $updateReady, applyUpdateFx, pwaStarted, reloadClicked } from './pwa';

/**
 * /maintenance runs on the maintenance credential, not a user session (spec sections 2 and 7). The page
 * takes it from the link a distributor hands out (`/maintenance#token=...`: a fragment never reaches a
 * server or its logs, and the page removes it from the address bar at once) or from the form, keeps it in
 * this tab's sessionStorage only (closing the tab forgets it), and sends it as `Authorization: Token ...`.
 */
export const pageMounted = createEvent();
export const credentialEntered = createEvent<string>();
export const credentialForgotten = createEvent();
export const refreshClicked = createEvent();
export const recordOpened = createEvent<string>();
export const recordClosed = createEvent();
export const recordSubmitted = createEvent<{ actions: MaintenanceAction[]; note: string }>();

/** The credential from the link's fragment (removed from the address bar), else from this tab's storage. */
export const readCredentialFx = createEffect((): string | null => {
  const match = /(?:^#|&)token=([A-Za-z0-9]{10,128})(?:&|$)/.exec(window.location.hash);
  if (match?.[1]) {
    window.history.replaceState(window.history.state, '', window.location.pathname + window.location.search);
    return match[1];
  }
  return readStoredCredential();
});
export const storeCredentialFx = createEffect((token: string | null) => {
  if (token) window.sessionStorage.setItem(MAINTENANCE_CREDENTIAL_KEY, token);
  else window.sessionStorage.removeItem(MAINTENANCE_CREDENTIAL_KEY);
});

export const loadDevicesFx = createEffect((token: string) => maintenanceApi.devices(token));
/** A record made on the phone: kept in the outbox (IndexedDB) first, whatever the signal, then sent. */
export const enqueueFx = createEffect(
  ({ serial, label, actions, note }: { serial: string; label: string; actions: MaintenanceAction[]; note: string }) => {
    const key = crypto.randomUUID();
    return outbox.add({
      key,
      serial,
      label,
      body: { serial, actions, note, idempotency_key: key, performed_at: new Date().toISOString() },
    });
  },
);
export const loadOutboxFx = createEffect(() => outbox.list());
export const sendOutboxFx = createEffect((token: string) => outbox.send(token));
export const dismissRefusedFx = createEffect((seq: number) => outbox.remove(seq));
export const saveDevicesFx = createEffect((list: MaintenanceDevice[]) => outbox.saveDevices(list));
export const savedDevicesFx = createEffect(() => outbox.savedDevices());
/** The browser says the network is back (the 'online' event), or the periodic retry while records wait. */
export const networkReturned = createEvent();
export const refusedDismissed = createEvent<number>();

/** The credential the page runs on: set once the server accepted it. */
export const $credential = createStore<string | null>(null, { serialize: 'ignore' });
/** A credential being tried (from the link, storage or the form). */
const $trying = createStore<string | null>(null, { serialize: 'ignore' });
export const $devices = createStore<MaintenanceDevice[]>([]);
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'failed' | 'refused';
export const $status = createStore<LoadStatus>('idle');
export const $loadError = createStore<string | null>(null);
export const $loadedAt = createStore<Date | null>(null, { serialize: 'ignore' });

export const $recordSerial = createStore<string | null>(null);
export const $recordError = createStore<string | null>(null);
export const $recordPending = enqueueFx.pending;
export const recordPopup = createResultPopup({ ms: 1500 });

const isRefused = (e: unknown) => e instanceof HttpError && (e.status === 401 || e.status === 403);

sample({ clock: pageMounted, target: readCredentialFx });
sample({ clock: readCredentialFx.doneData, filter: (t): t is string => Boolean(t), target: $trying });
sample({ clock: credentialEntered, fn: (t) => t.trim(), filter: (t) => t.length > 0, target: $trying });
sample({ clock: $trying, filter: (t): t is string => t !== null, target: loadDevicesFx });
sample({ clock: refreshClicked, source: $credential, filter: (t): t is string => t !== null, target: loadDevicesFx });

// The first answer that works makes the credential the page's; a refused one is forgotten.
sample({ clock: loadDevicesFx.done, fn: ({ params }) => params, target: [$credential, storeCredentialFx] });
sample({
  clock: loadDevicesFx.fail,
  filter: ({ error }) => isRefused(error),
  fn: () => null,
  target: [$credential, $trying, storeCredentialFx],
});
sample({ clock: credentialForgotten, fn: () => null, target: [$credential, $trying, storeCredentialFx] });

$devices.on(loadDevicesFx.doneData, (_, list) => list).reset(credentialForgotten);
$loadedAt.on(loadDevicesFx.done, () => new Date()).reset(credentialForgotten);
$status
  .on(loadDevicesFx, (s) => (s === 'ready' ? s : 'loading'))
  .on(loadDevicesFx.done, () => 'ready')
  .on(loadDevicesFx.fail, (_, { error }) => (isRefused(error) ? 'refused' : 'failed'))
  .reset(credentialForgotten);
$loadError
  .on(loadDevicesFx.fail, (_, { error }) =>
    isRefused(error)
      ? 'This maintenance credential is not valid: it may have been replaced or revoked. Ask a distributor for the current one.'
      : `The devices could not be loaded: ${failureMessage(error)}`,
  )
  .reset(loadDevicesFx.done, credentialForgotten);

// Recording what was done on one device: into the outbox, then sent (now, or when the signal returns).
export const $outbox = createStore<OutboxEntry[]>([], { serialize: 'ignore' });
/** How many records wait to be sent (the screen always shows it). */
export const $waiting = $outbox.map((list) => list.filter((e) => e.status === 'waiting').length);
/** Records the server refused, with its reason: shown until the technician has read them. */
export const $refused = $outbox.map((list) => list.filter((e) => e.status === 'refused'));
/** The list shown comes from the phone (no signal): when the server last gave it. */
export const $savedAt = createStore<string | null>(null, { serialize: 'ignore' });

$outbox.on(loadOutboxFx.doneData, (_, list) => list);
$recordSerial.on(recordOpened, (_, serial) => serial).reset(recordClosed, enqueueFx.done, credentialForgotten);
$recordError
  .on(enqueueFx.failData, (_, error) => `The record could not be kept on this phone: ${failureMessage(error)}`)
  .reset(recordOpened, recordClosed, enqueueFx);
sample({
  clock: recordSubmitted,
  source: { serial: $recordSerial, devices: $devices },
  filter: ({ serial }) => serial !== null,
  fn: ({ serial, devices }, input) => ({
    serial: serial!,
    label: devices.find((d) => d.serial === serial)?.label ?? '',
    ...input,
  }),
  target: enqueueFx,
});
sample({
  clock: enqueueFx.doneData,
  source: $devices,
  fn: (devices, entry) => ({
    tone: 'success' as const,
    title: 'WORK RECORDED',
    message: `${devices.find((d) => d.serial === entry.serial)?.label || entry.serial}: ${plural(entry.body.actions?.length ?? 0, 'action')} saved.`,
  }),
  target: recordPopup.shown,
});

// Sending: after each record, when the page has its credential, when the network returns. One at a time.
sample({ clock: [pageMounted, enqueueFx.done, sendOutboxFx.finally, dismissRefusedFx.done], target: loadOutboxFx });
sample({
  clock: [enqueueFx.done, loadDevicesFx.done, networkReturned],
  source: { token: $credential, pending: sendOutboxFx.pending },
  filter: ({ token, pending }) => token !== null && !pending,
  fn: ({ token }) => token!,
  target: sendOutboxFx,
});
sample({ clock: refusedDismissed, target: dismissRefusedFx });
// What was sent shows in the list (each device's last visit): read it again.
sample({
  clock: sendOutboxFx.doneData,
  source: $credential,
  filter: (token, { sent }) => token !== null && sent.length > 0,
  fn: (token) => token!,
  target: loadDevicesFx,
});

// The list for a start without signal: kept on each load, shown (with its time) when the server cannot be reached.
sample({ clock: loadDevicesFx.doneData, target: saveDevicesFx });
$savedAt.reset(loadDevicesFx.done);
sample({
  clock: loadDevicesFx.fail,
  filter: ({ error }) => error instanceof HttpError && error.status === 0,
  target: savedDevicesFx,
});
sample({ clock: savedDevicesFx.doneData, filter: Boolean, fn: (saved) => saved!.list, target: $devices });
sample({ clock: savedDevicesFx.doneData, filter: Boolean, fn: (saved) => saved!.at, target: $savedAt });
// With the list from the phone the page runs on the credential it was tried with (checked when the signal returns).
sample({
  clock: savedDevicesFx.doneData,
  source: $trying,
  filter: (t, saved) => t !== null && saved !== null,
  fn: (t) => t!,
  target: $credential,
});
sample({ clock: savedDevicesFx.doneData, filter: Boolean, fn: () => 'ready' as const, target: $status });

// The field app: its service worker registers when the page opens; a waiting version reloads only on the
// technician's Reload, and never while a record form is open (the button waits too: maintenance-page.tsx).
sample({ clock: pageMounted, target: pwaStarted });
sample({
  clock: reloadClicked,
  source: { ready: $updateReady, serial: $recordSerial },
  filter: ({ ready, serial }) => ready && serial === null,
  target: applyUpdateFx,
});
