import { usersApi } from '@fleet/shared';
import type { UserAccount } from '@fleet/shared';
import { createEvent, createStore, sample } from 'effector';
import { call, createApiFx, failureMessage, fieldMessages } from '../../shared/api';

/**
 * What the account forms show of a person (Request detail, Edit Account, Account Settings): the
 * fields of spec section 2. The sign-up list, the client list and the session user each map to it.
 */
export type AccountView = {
  email: string;
  name: string;
  company: string;
  phone: string;
  profile_url: string | null;
  /** The user type as the form shows it: Client, Distributor, Market Partner. */
  type: string;
  is_enable_notification_email: boolean;
  is_enable_notification_phone: boolean;
  is_enable_notification_weekly_report?: boolean;
  is_enable_notification_daily_dispensation?: boolean;
};

export type AccountDraft = {
  username: string;
  company: string;
  phone: string;
  notifyEmail: boolean;
  notifyPhone: boolean;
  notifyWeeklyReport: boolean;
  notifyDailyDispensation: boolean;
};

export const draftOf = (a: AccountView): AccountDraft => ({
  username: a.name,
  company: a.company,
  phone: a.phone,
  notifyEmail: a.is_enable_notification_email,
  notifyPhone: a.is_enable_notification_phone,
  notifyWeeklyReport: a.is_enable_notification_weekly_report ?? false,
  notifyDailyDispensation: a.is_enable_notification_daily_dispensation ?? false,
});

const flag = (on: boolean) => (on ? 'True' : 'False');

/**
 * The multipart body of POST /api/v1/editUser/{email} (spec section 7): the text fields, the flags as
 * 'True'/'False' strings, and 'None' for the report switches a form does not show (kept as they are).
 */
export function editUserForm(
  draft: AccountDraft,
  opts: { switches: boolean; image: File | null; removeImage: boolean },
): FormData {
  const form = new FormData();
  form.set('username', draft.username);
  form.set('company', draft.company);
  form.set('phone', draft.phone);
  form.set('isEnableNotificationEmail', flag(draft.notifyEmail));
  form.set('isEnableNotificationPhone', flag(draft.notifyPhone));
  form.set('isEnableNotificationWeeklyReport', opts.switches ? flag(draft.notifyWeeklyReport) : 'None');
  form.set('isEnableNotificationDailyDispensation', opts.switches ? flag(draft.notifyDailyDispensation) : 'None');
  if (opts.image) form.set('image', opts.image);
  else if (opts.removeImage) form.set('isRemoveImage', 'True');
  return form;
}

/** POST /api/v1/editUser/{email}. */
const editUser = ({ email, form }: { email: string; form: FormData }) => call(usersApi.edit, { params: { email }, form });

/**
 * One account form: read-only until edited (or always editable), a draft of its fields, a chosen
 * profile image, Save through editUser with loading and error answered, Cancel back to what was shown.
 * `switches`: the form also shows (and saves) the Weekly Report and Daily Notification switches.
 * Each feature makes its own with this, so two forms never share a draft.
 */
export function createAccountForm(options: { switches: boolean }) {
  const opened = createEvent<{ account: AccountView; alwaysEditable: boolean }>();
  const closed = createEvent();
  const editStarted = createEvent();
  const editCancelled = createEvent();
  const fieldChanged = createEvent<Partial<AccountDraft>>();
  const imageChosen = createEvent<File>();
  const imageRemoved = createEvent();
  const saveClicked = createEvent();
  const saveFx = createApiFx(editUser);
  /** The account as saved (the server's answer), for whoever shows it elsewhere. */
  const saved = saveFx.doneData;

  const $account = createStore<AccountView | null>(null);
  const $alwaysEditable = createStore(false);
  const $editing = createStore(false);
  const $draft = createStore<AccountDraft | null>(null);
  const $image = createStore<File | null>(null);
  const $removeImage = createStore(false);
  const $error = createStore<string | null>(null);
  const $fieldErrors = createStore<Record<string, string>>({});
  const $saving = saveFx.pending;

  $account.on(opened, (_, { account }) => account).reset(closed);
  $alwaysEditable.on(opened, (_, { alwaysEditable }) => alwaysEditable).reset(closed);
  $editing
    .on(opened, (_, { alwaysEditable }) => alwaysEditable)
    .on(editStarted, () => true)
    .reset(closed);
  sample({ clock: editCancelled, source: $alwaysEditable, target: $editing });
  $draft
    .on(opened, (_, { account }) => draftOf(account))
    .on(fieldChanged, (draft, patch) => (draft ? { ...draft, ...patch } : draft))
    .reset(closed);
  sample({ clock: editCancelled, source: $account, filter: Boolean, fn: draftOf, target: $draft });
  $image.on(imageChosen, (_, file) => file).reset(opened, closed, editCancelled, imageRemoved);
  $removeImage.on(imageRemoved, () => true).reset(opened, closed, editCancelled, imageChosen);
  $error.on(saveFx.failData, (_, error) => failureMessage(error)).reset(opened, closed, editCancelled, fieldChanged, saveFx);
  $fieldErrors.on(saveFx.failData, (_, error) => fieldMessages(error)).reset(opened, closed, editCancelled, saveFx);

  sample({
    clock: saveClicked,
    source: { account: $account, draft: $draft, image: $image, removeImage: $removeImage, editing: $editing, saving: $saving },
    filter: ({ account, draft, editing, saving }) => account !== null && draft !== null && editing && !saving,
    fn: ({ account, draft, image, removeImage }) => ({
      email: account!.email,
      form: editUserForm(draft!, { switches: options.switches, image, removeImage }),
    }),
    target: saveFx,
  });

  // Saved: what the server answered is what the form shows now; read-only again unless always editable.
  sample({
    clock: saveFx.doneData,
    source: $account,
    filter: Boolean,
    fn: (account, answer) => ({ ...account, ...answerView(answer, account.type) }),
    target: $account,
  });
  sample({
    clock: saveFx.doneData,
    source: $account,
    filter: Boolean,
    fn: (account, answer) => draftOf(answerView(answer, account.type)),
    target: $draft,
  });
  sample({ clock: saveFx.done, source: $alwaysEditable, target: $editing });
  $image.reset(saveFx.done);
  $removeImage.reset(saveFx.done);

  return {
    opened,
    closed,
    editStarted,
    editCancelled,
    fieldChanged,
    imageChosen,
    imageRemoved,
    saveClicked,
    saveFx,
    saved,
    $account,
    $editing,
    $alwaysEditable,
    $draft,
    $image,
    $removeImage,
    $error,
    $fieldErrors,
    $saving,
    switches: options.switches,
  };
}
export type AccountFormModel = ReturnType<typeof createAccountForm>;

/** The server's answer in the form's terms; the type label stays the one the form was opened with. */
export function answerView(a: UserAccount, type: string): AccountView {
  return {
    email: a.email,
    name: a.name,
    company: a.company,
    phone: a.phone,
    profile_url: a.profile_url,
    type,
    is_enable_notification_email: a.is_enable_notification_email,
    is_enable_notification_phone: a.is_enable_notification_phone,
    is_enable_notification_weekly_report: a.is_enable_notification_weekly_report,
    is_enable_notification_daily_dispensation: a.is_enable_notification_daily_dispensation,
  };
}
