import { createEvent, createStore, sample } from 'effector';
import { DEACTIVATED_FLAG } from '../../entities/session';
import { $location, queryParamRemoved } from '../../shared/routing';

/**
 * The Account Deactivated dialog: opened by a 401 at login, by /?showDeactivatedModal=true (where any
 * 403 sends the browser), closed by Close or Escape, which also drops the flag from the address.
 */
export const deactivatedDialogOpened = createEvent();
export const deactivatedDialogClosed = createEvent();

export const $deactivatedDialogOpen = createStore(false);
$deactivatedDialogOpen.on(deactivatedDialogOpened, () => true).on(deactivatedDialogClosed, () => false);

sample({
  clock: $location,
  filter: (location) => new URLSearchParams(location.search).get(DEACTIVATED_FLAG) === 'true',
  target: deactivatedDialogOpened,
});
sample({ clock: deactivatedDialogClosed, fn: () => DEACTIVATED_FLAG, target: queryParamRemoved });
