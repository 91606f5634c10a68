import { plural } from '@fleet/shared';
import type { MaintenanceAction, MaintenanceDevice, MaintenanceRecord } from '@fleet/shared';
import { createEffect, createEvent, createStore, sample } from 'effector';
import { MAINTENANCE_CREDENTIAL_KEY, maintenanceApi, readStoredCredential } from '../../entities/maintenance';
import { failureMessage, fieldMessages, HttpError } from '../../shared/api';
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
export const recordFx = createEffect(
  ({ token, serial, actions, note }: { token: string; serial: string; actions: MaintenanceAction[]; note: string }): Promise<MaintenanceRecord> =>
    maintenanceApi.record({ serial, actions, note }, token),
);

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
export const $recordPending = recordFx.pending;
export const recordPopup = createResultPopup({ ms: 1500 });

const isRefused = (e: unknown) => e instanceof HttpError && (e.status === 401 || e.status === 403);

sample({ clock: pageMounted, target: readCredentialFx });
sample({ clock: readCredentialFx.doneData, filter: (t): t is string => Boolean(t), target: $trying });
sample({ clock: credentialEntered, fn: (t) => t.trim(), filter: (t) => t.length > 0, target: $trying });
sample({ clock: $trying, filter: (t): t is string => t !== null, target: loadDevicesFx });
sample({ clock: refreshClicked, source: $credential, filter: (t): t is string => t !== null, target: loadDevicesFx });

// The first answer that works makes the credential the page's; a refused one is forgotten.
sample({ clock: loadDevicesFx.done, fn: ({ params }) => params, target: [$credential, storeCredentialFx] });
sample({ clock: loadDevicesFx.fail, filter: ({ error }) => isRefused(error), fn: () => null, target: [$credential, $trying, storeCredentialFx] });
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
    isRefused(error) ? 'This maintenance credential is not valid: it may have been replaced or revoked. Ask a distributor for the current one.' : `The devices could not be loaded: ${failureMessage(error)}`,
  )
  .reset(loadDevicesFx.done, credentialForgotten);

// Recording what was done on one device.
$recordSerial.on(recordOpened, (_, serial) => serial).reset(recordClosed, recordFx.done, credentialForgotten);
$recordError
  .on(recordFx.failData, (_, error) => {
    const fields = fieldMessages(error);
    return Object.values(fields)[0] ?? failureMessage(error);
  })
  .reset(recordOpened, recordClosed, recordFx);
sample({
  clock: recordSubmitted,
  source: { token: $credential, serial: $recordSerial },
  filter: ({ token, serial }) => token !== null && serial !== null,
  fn: ({ token, serial }, input) => ({ token: token!, serial: serial!, ...input }),
  target: recordFx,
});
sample({
  clock: recordFx.doneData,
  source: $devices,
  fn: (devices, record) => ({
    tone: 'success' as const,
    title: 'WORK RECORDED',
    message: `${devices.find((d) => d.serial === record.serial)?.label || record.serial}: ${plural(record.actions.length, 'action')} saved.`,
  }),
  target: recordPopup.shown,
});
// The list shows each device's last visit: read it again after a record.
sample({ clock: recordFx.done, source: $credential, filter: (t): t is string => t !== null, target: loadDevicesFx });

// The field app: its service worker registers when the page opens; a waiting version reloads only on the
// technician's Reload, and never while a record form is open (the button waits too: maintenance-page.tsx).
sample({ clock: pageMounted, target: pwaStarted });
sample({ clock: reloadClicked, source: { ready: $updateReady, serial: $recordSerial }, filter: ({ ready, serial }) => ready && serial === null, target: applyUpdateFx });
