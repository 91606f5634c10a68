import { USER_MESSAGES, usersApi, type ClientUser, type UserAccount } from '@fleet/shared';
import { createEvent, createStore, sample } from 'effector';
import {
  clientUsersRequested,
  createAccountForm,
  pendingUserDecided,
  pendingUsersRequested,
  type AccountView,
} from '../../entities/user';
import { sessionEnded } from '../../entities/session';
import { call, createApiFx, failureMessage } from '../../shared/api';
import { createResultPopup, type PopupResult } from '../../shared/lib';

/**
 * Request detail and Edit Account (spec sections 2 and 4): a sign-up request opens read-only (Edit
 * Request -> Save/Cancel) with Reject and Activate Account; a client of the client list opens in
 * account-edit mode, always editable. A decision closes the detail, says '{email} has been
 * activated!' / '{email} has been rejected!' and refreshes both lists.
 */
export type DetailMode = 'request' | 'account';

export const viewDetailClicked = createEvent<UserAccount>();
export const editAccountClicked = createEvent<ClientUser>();
export const detailClosed = createEvent();
export const activateClicked = createEvent();
/** Reject asks first: a rejected request leaves the list and cannot sign in. */
export const rejectClicked = createEvent();
export const rejectConfirmed = createEvent();
export const rejectCancelled = createEvent();

export const requestForm = createAccountForm({ switches: false });

const decide = (decision: typeof usersApi.activate | typeof usersApi.reject) => (email: string) =>
  call(decision, { params: { email } });
export const activateFx = createApiFx(decide(usersApi.activate));
export const rejectFx = createApiFx(decide(usersApi.reject));

export const $detailMode = createStore<DetailMode | null>(null);
export const $rejectConfirmOpen = createStore(false);
export const $deciding = createStore<'activate' | 'reject' | null>(null);
export const decisionPopup = createResultPopup<PopupResult>({ ms: 2000, resetOn: [sessionEnded] });

/** A sign-up request in the form's terms: what it becomes when activated is a client account. */
export const requestView = (u: UserAccount): AccountView => ({ ...u, type: 'Client' });
export const clientView = (c: ClientUser): AccountView => ({ ...c, type: 'Client' });

$detailMode
  .on(viewDetailClicked, () => 'request')
  .on(editAccountClicked, () => 'account')
  .reset(detailClosed, sessionEnded, activateFx.done, rejectFx.done);
sample({ clock: viewDetailClicked, fn: (u) => ({ account: requestView(u), alwaysEditable: false }), target: requestForm.opened });
sample({ clock: editAccountClicked, fn: (c) => ({ account: clientView(c), alwaysEditable: true }), target: requestForm.opened });
sample({ clock: [detailClosed, sessionEnded, activateFx.done, rejectFx.done], target: requestForm.closed });

// A decision on the request as it is shown; never while an edit is unsaved or another call runs.
const $decidable = sample({
  source: { mode: $detailMode, editing: requestForm.$editing, deciding: $deciding, saving: requestForm.$saving },
  fn: ({ mode, editing, deciding, saving }) => mode === 'request' && !editing && deciding === null && !saving,
});
sample({ clock: activateClicked, source: requestForm.$account, filter: $decidable, fn: (a) => a!.email, target: activateFx });
$rejectConfirmOpen.on(rejectClicked, () => true).reset(rejectConfirmed, rejectCancelled, detailClosed, sessionEnded);
sample({ clock: rejectConfirmed, source: requestForm.$account, filter: $decidable, fn: (a) => a!.email, target: rejectFx });
$deciding
  .on(activateFx, () => 'activate')
  .on(rejectFx, () => 'reject')
  .reset(activateFx.finally, rejectFx.finally);

sample({
  clock: activateFx.done,
  fn: ({ params }): PopupResult => ({ tone: 'success', title: USER_MESSAGES.activated(params), message: null }),
  target: decisionPopup.shown,
});
sample({
  clock: rejectFx.done,
  fn: ({ params }): PopupResult => ({ tone: 'success', title: USER_MESSAGES.rejected(params), message: null }),
  target: decisionPopup.shown,
});
sample({
  clock: [activateFx.failData, rejectFx.failData],
  fn: (error): PopupResult => ({ tone: 'danger', title: 'Something went wrong.', message: failureMessage(error) }),
  target: decisionPopup.shown,
});

// What changed on the server shows in both lists: a decided request leaves one and may join the other.
sample({ clock: [activateFx.done, rejectFx.done], fn: ({ params }) => params, target: pendingUserDecided });
sample({
  clock: [activateFx.done, rejectFx.done, requestForm.saved],
  fn: () => undefined,
  target: [pendingUsersRequested, clientUsersRequested],
});
