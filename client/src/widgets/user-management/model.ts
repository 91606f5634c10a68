import { createEvent, createStore, sample } from 'effector';
import { $accessLevel, $canOpenUserManagement, sessionEnded } from '../../entities/session';
import { clientUsersRequested, pendingUsersRequested } from '../../entities/user';
import { accountSettingsHidden, accountSettingsShown } from '../../features/account-settings';
import { detailClosed } from '../../features/user-approval';

/**
 * User Management (spec section 2, popups): opened from the profile image by any role except client; a
 * client's profile image opens the same dialog with its own Account Settings only (issue 42: a client's
 * notification switches decide its mails, and it had no way to them).
 * Sign Up Request shows the sign-up requests and the client list (a distributor's; a market-partner
 * user manages neither), Account Settings the caller's own account.
 */
export type UserManagementSection = 'sign-up-requests' | 'account-settings';

export const userManagementOpened = createEvent();
export const userManagementClosed = createEvent();
export const userManagementSectionSelected = createEvent<UserManagementSection>();

export const $userManagementOpen = createStore(false);
export const $userManagementSection = createStore<UserManagementSection>('sign-up-requests');
/** The sign-up request list and client list are a distributor's (not a market partner's, spec section 6). */
export const $managesSignUps = $accessLevel.map((level) => level === 'distributor');

$userManagementOpen.on(userManagementClosed, () => false).reset(sessionEnded);
/** Only Account Settings: a client has no sign-up requests or clients to manage, and no menu. */
export const $accountSettingsOnly = $canOpenUserManagement.map((can) => !can);
$userManagementSection.on(userManagementSectionSelected, (_, section) => section);

sample({
  clock: userManagementOpened,
  source: $accountSettingsOnly,
  fn: (only): UserManagementSection => (only ? 'account-settings' : 'sign-up-requests'),
  target: $userManagementSection,
});
sample({
  clock: userManagementOpened,
  source: $accessLevel,
  filter: (level) => level !== null,
  fn: () => true,
  target: $userManagementOpen,
});

// Leaving a section or the dialog drops what it was editing (an unsaved draft is not kept for later);
// before the section an opening shows is shown (a client's opens on Account Settings).
sample({
  clock: [userManagementClosed, userManagementOpened],
  fn: () => undefined,
  target: [detailClosed, accountSettingsHidden],
});
// Each showing of a section reads it fresh: another distributor may have decided a request meanwhile.
const sectionShown = sample({
  clock: [userManagementOpened, userManagementSectionSelected],
  source: { open: $userManagementOpen, section: $userManagementSection },
  filter: ({ open }) => open,
  fn: ({ section }) => section,
});
sample({
  clock: sectionShown,
  source: $managesSignUps,
  filter: (manages, section) => manages && section === 'sign-up-requests',
  fn: () => undefined,
  target: [pendingUsersRequested, clientUsersRequested],
});
sample({
  clock: sectionShown,
  filter: (section) => section === 'account-settings',
  fn: () => undefined,
  target: accountSettingsShown,
});
sample({
  clock: userManagementSectionSelected,
  filter: (section) => section === 'account-settings',
  fn: () => undefined,
  target: detailClosed,
});
sample({
  clock: userManagementSectionSelected,
  filter: (section) => section === 'sign-up-requests',
  fn: () => undefined,
  target: accountSettingsHidden,
});
