import { REPORT_MESSAGES, reportsApi } from '@fleet/shared';
import { combine, createEvent, createStore, sample } from 'effector';
import {
  $reportEmails,
  reportEmailRemoved,
  reportEmailsRequested,
  reportEmailsStored,
  RESULT_MS,
  type ReportEmail,
} from '../../entities/report';
import { sessionEnded } from '../../entities/session';
import { call, createApiFx, failureMessage } from '../../shared/api';
import { createResultPopup } from '../../shared/lib';

/**
 * Email Setup (spec section 2 popups, 5 and 8): add a name and an email (both non-empty, else nothing is
 * sent), the 'Email List for Report' with an Enabled switch and Delete per row, Cancel and Save. Add and
 * Delete are sent at once; the switches are kept until Save sends each changed row (Cancel forgets them).
 * Each call ends in a result popup in the spec's words that closes itself.
 */
export const RESULT_TEXT = {
  added: REPORT_MESSAGES.emailAdded,
  addFailed: 'FAIL TO ADD EMAIL',
  edited: REPORT_MESSAGES.emailEdited,
  editFailed: 'FAIL TO EDIT EMAIL',
  deleted: REPORT_MESSAGES.emailDeleted,
  deleteFailed: 'FAIL TO DELETE EMAIL',
} as const;

export const emailSetupOpened = createEvent();
export const emailSetupCancelled = createEvent();
export const emailSetupSaved = createEvent();
export const newNameChanged = createEvent<string>();
export const newEmailChanged = createEvent<string>();
export const addClicked = createEvent();
export const enabledToggled = createEvent<number>();
export const deleteClicked = createEvent<number>();

export const addEmailFx = createApiFx((input: { name: string; email: string }) => call(reportsApi.addEmail, { body: input }));
/** Sends each changed row in turn; fails on the first refusal (the rows sent before it stay saved). */
export const editEmailsFx = createApiFx(async (rows: readonly ReportEmail[]) => {
  const saved: ReportEmail[] = [];
  for (const row of rows)
    saved.push(
      await call(reportsApi.editEmail, {
        params: { id: row.id },
        body: { email: row.email, is_enable: row.is_enable },
      }),
    );
  return saved;
});
export const deleteEmailFx = createApiFx(async (id: number) => {
  await call(reportsApi.deleteEmail, { params: { id }, body: { isEnable: false } });
  return id;
});
/** Each call's result popup, closing itself after RESULT_MS. */
export const {
  shown: resultShown,
  closed: resultClosed,
  timerFx: resultTimerFx,
  $result,
} = createResultPopup({ ms: RESULT_MS, resetOn: [sessionEnded] });

export const $open = createStore(false);
export const $newName = createStore('');
export const $newEmail = createStore('');
/** Switches flipped since the dialog opened: id -> wanted is_enable. */
export const $switches = createStore<Record<number, boolean>>({});
export const $busy = combine(addEmailFx.pending, editEmailsFx.pending, deleteEmailFx.pending, (a, e, d) => a || e || d);
/** The list as the dialog shows it: the switches applied. */
export const $rows = combine($reportEmails, $switches, (list, switches) =>
  list.map((row) => (row.id in switches ? { ...row, is_enable: switches[row.id]! } : row)),
);
/** Spec section 5: a name and an email, both non-empty. */
export const $canAdd = combine(
  $newName,
  $newEmail,
  $busy,
  (name, email, busy) => !busy && name.trim() !== '' && email.trim() !== '',
);

$open.on(emailSetupOpened, () => true).reset(emailSetupCancelled, sessionEnded);
$newName.on(newNameChanged, (_, v) => v).reset(emailSetupOpened, emailSetupCancelled, addEmailFx.done, sessionEnded);
$newEmail.on(newEmailChanged, (_, v) => v).reset(emailSetupOpened, emailSetupCancelled, addEmailFx.done, sessionEnded);
$switches.reset(emailSetupOpened, emailSetupCancelled, sessionEnded);

sample({ clock: emailSetupOpened, target: reportEmailsRequested });

// A switch starts from the row's stored value, not from "on".
sample({
  clock: enabledToggled,
  source: { list: $reportEmails, switches: $switches },
  fn: ({ list, switches }, id) => {
    const stored = list.find((e) => e.id === id)?.is_enable ?? true;
    const current = id in switches ? switches[id]! : stored;
    const next = { ...switches };
    if (!current === stored) delete next[id];
    else next[id] = !current;
    return next;
  },
  target: $switches,
});

sample({
  clock: addClicked,
  source: { name: $newName, email: $newEmail, can: $canAdd },
  filter: ({ can }) => can,
  fn: ({ name, email }) => ({ name: name.trim(), email: email.trim() }),
  target: addEmailFx,
});
sample({ clock: addEmailFx.doneData, fn: (row) => [row], target: reportEmailsStored });
sample({
  clock: addEmailFx.doneData,
  fn: (row) => ({ tone: 'success' as const, title: RESULT_TEXT.added, message: `${row.email} is on the Email List for Report.` }),
  target: resultShown,
});
sample({
  clock: addEmailFx.failData,
  fn: (error) => ({ tone: 'danger' as const, title: RESULT_TEXT.addFailed, message: failureMessage(error) }),
  target: resultShown,
});

// Save: the changed rows, or a plain close when nothing changed.
const changedRows = sample({
  clock: emailSetupSaved,
  source: { rows: $rows, switches: $switches, busy: $busy },
  filter: ({ busy }) => !busy,
  fn: ({ rows, switches }) => rows.filter((row) => row.id in switches),
});
sample({ clock: changedRows, filter: (rows) => rows.length > 0, target: editEmailsFx });
sample({ clock: changedRows, filter: (rows) => rows.length === 0, fn: () => undefined, target: emailSetupCancelled });
sample({ clock: editEmailsFx.doneData, target: reportEmailsStored });
sample({
  clock: editEmailsFx.doneData,
  fn: (rows) => ({
    tone: 'success' as const,
    title: RESULT_TEXT.edited,
    message: rows.map((r) => `${r.email}: ${r.is_enable ? 'enabled' : 'disabled'}`).join(', '),
  }),
  target: resultShown,
});
sample({ clock: editEmailsFx.done, fn: () => undefined, target: emailSetupCancelled });
sample({
  clock: editEmailsFx.failData,
  fn: (error) => ({ tone: 'danger' as const, title: RESULT_TEXT.editFailed, message: failureMessage(error) }),
  target: resultShown,
});
// Rows saved before a refusal are stored; the refused ones keep their switch for another try.
sample({ clock: editEmailsFx.fail, fn: () => undefined, target: reportEmailsRequested });

sample({ clock: deleteClicked, source: $busy, filter: (busy) => !busy, fn: (_, id) => id, target: deleteEmailFx });
sample({ clock: deleteEmailFx.doneData, target: reportEmailRemoved });
sample({
  clock: deleteEmailFx.done,
  fn: () => ({ tone: 'success' as const, title: RESULT_TEXT.deleted, message: 'The address was removed from the list.' }),
  target: resultShown,
});
sample({
  clock: deleteEmailFx.failData,
  fn: (error) => ({ tone: 'danger' as const, title: RESULT_TEXT.deleteFailed, message: failureMessage(error) }),
  target: resultShown,
});
