import { plural } from '@fleet/shared';
import type { MaintenanceCredentialStatus, MaintenanceRecord } from '@fleet/shared';
import { createEffect, createEvent, createStore, sample } from 'effector';
import { maintenanceCalls, readStoredCredential } from '../../entities/maintenance';
import { failureMessage, HttpError } from '../../shared/api';

/**
 * /maintenance-result (spec section 2: opened from the Maintenance tile): what was done, most recent first,
 * within the reader's scope. It reads with the signed-in user's token; a technician's tab that holds the
 * maintenance credential (from /maintenance) reads with that. Plain effects, not createApiFx: a 401 here
 * means "not signed in", which this page says itself rather than ending a session.
 */
export const pageMounted = createEvent();
export const retryClicked = createEvent();
export const rotateClicked = createEvent();
export const revokeConfirmed = createEvent();
export const newCredentialDismissed = createEvent();

export const loadRecordsFx = createEffect(async (): Promise<MaintenanceRecord[]> => {
  try {
    return await maintenanceCalls.records();
  } catch (error) {
    const stored = readStoredCredential();
    if (error instanceof HttpError && error.status === 401 && stored) return maintenanceCalls.records(stored);
    throw error;
  }
});
/** Only a distributor gets an answer: the panel to rotate or revoke the credential shows for it alone. */
export const loadCredentialFx = createEffect(() => maintenanceCalls.credentialStatus());
export const rotateFx = createEffect(() => maintenanceCalls.rotateCredential());
export const revokeFx = createEffect(() => maintenanceCalls.revokeCredential());

export type ResultStatus = 'idle' | 'loading' | 'ready' | 'failed' | 'signed-out';
export const $records = createStore<MaintenanceRecord[]>([]);
export const $status = createStore<ResultStatus>('idle');
export const $error = createStore<string | null>(null);
export const $credentialStatus = createStore<MaintenanceCredentialStatus | null>(null);
/** A credential just made: shown once, until dismissed. */
export const $newCredential = createStore<{ token: string; link: string } | null>(null, { serialize: 'ignore' });
export const $credentialMessage = createStore<{ tone: 'success' | 'danger'; text: string } | null>(null);
export const $credentialPending = createStore(false);

sample({ clock: [pageMounted, retryClicked], target: [loadRecordsFx, loadCredentialFx] });
$records.on(loadRecordsFx.doneData, (_, list) => list);
$status
  .on(loadRecordsFx, (s) => (s === 'ready' ? s : 'loading'))
  .on(loadRecordsFx.done, () => 'ready')
  .on(loadRecordsFx.failData, (_, e) =>
    e instanceof HttpError && (e.status === 401 || e.status === 403) ? 'signed-out' : 'failed',
  );
$error.on(loadRecordsFx.failData, (_, e) => `What was done could not be loaded: ${failureMessage(e)}`).reset(loadRecordsFx.done);

$credentialStatus.on(loadCredentialFx.doneData, (_, s) => s).reset(loadCredentialFx.fail);
sample({ clock: rotateClicked, target: rotateFx });
sample({ clock: revokeConfirmed, target: revokeFx });
$credentialPending.on([rotateFx, revokeFx], () => true).on([rotateFx.finally, revokeFx.finally], () => false);
$newCredential.on(rotateFx.doneData, (_, r) => ({ token: r.token, link: r.link })).reset(newCredentialDismissed, revokeFx.done);
$credentialMessage
  .on(rotateFx.done, () => ({
    tone: 'success',
    text: 'A new maintenance credential is active; the previous one no longer opens /maintenance.',
  }))
  .on(revokeFx.doneData, (_, r) => ({
    tone: 'success',
    text: `Maintenance access revoked (${plural(r.revoked, 'credential')}).`,
  }))
  .on([rotateFx.failData, revokeFx.failData], (_, e) => ({ tone: 'danger', text: `Something went wrong: ${failureMessage(e)}` }))
  .reset(rotateFx, revokeFx);
sample({ clock: [rotateFx.done, revokeFx.done], target: loadCredentialFx });
