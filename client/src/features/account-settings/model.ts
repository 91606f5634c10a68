import type { AccessLevel, CurrentUser } from '@fleet/shared';
import { createEvent, createStore, sample } from 'effector';
import { $accessLevel, $user, fetchCurrentUserFx, sessionEnded } from '../../entities/session';
import { createAccountForm, type AccountView } from '../../entities/user';

/**
 * Account Settings (spec section 2): the caller's own account, read-only until Edit Account, then
 * Save/Cancel. It adds the Weekly Report and Daily Notification switches, which decide whether the
 * scheduled summary mails go to this person. A save re-reads the current user, so the profile image
 * in the profile panel changes with it.
 */
export const accountSettingsShown = createEvent();
export const accountSettingsHidden = createEvent();

export const settingsForm = createAccountForm({ switches: true });

/** 'Account saved.' after a save, until the next edit: the answer to Save besides the form itself. */
export const $savedNotice = createStore(false);

const TYPE_LABEL: Record<AccessLevel, string> = {
  distributor: 'Distributor',
  client: 'Client',
  'market-partner': 'Market Partner',
};

export const ownView = (user: CurrentUser, level: AccessLevel): AccountView => ({
  email: user.email,
  name: user.username,
  company: user.company,
  phone: user.phone,
  profile_url: user.profile_url,
  type: TYPE_LABEL[level],
  is_enable_notification_email: user.is_enable_notification_email,
  is_enable_notification_phone: user.is_enable_notification_phone,
  is_enable_notification_weekly_report: user.is_enable_notification_weekly_report,
  is_enable_notification_daily_dispensation: user.is_enable_notification_daily_dispensation,
});

sample({
  clock: accountSettingsShown,
  source: { user: $user, level: $accessLevel },
  filter: ({ user, level }) => user !== null && level !== null,
  fn: ({ user, level }) => ({ account: ownView(user!, level!), alwaysEditable: false }),
  target: settingsForm.opened,
});
sample({ clock: [accountSettingsHidden, sessionEnded], target: settingsForm.closed });
sample({ clock: settingsForm.saved, fn: () => undefined, target: fetchCurrentUserFx });
$savedNotice.on(settingsForm.saved, () => true).reset(settingsForm.editStarted, settingsForm.opened, settingsForm.closed);
