import { createEvent, createStore, sample } from 'effector';
import { $accessLevel, sessionEnded } from '../../entities/session';

/**
 * User Management (spec section 2, popups): opened from the profile image by any role except client.
 * This issue ships the dialog and its left menu; the users issue fills the sections.
 */
export type UserManagementSection = 'sign-up-requests' | 'account-settings';

export const userManagementOpened = createEvent();
export const userManagementClosed = createEvent();
export const userManagementSectionSelected = createEvent<UserManagementSection>();

export const $userManagementOpen = createStore(false);
export const $userManagementSection = createStore<UserManagementSection>('sign-up-requests');
export const $canOpenUserManagement = $accessLevel.map((level) => level !== null && level !== 'client');

$userManagementOpen.on(userManagementClosed, () => false).reset(sessionEnded);
$userManagementSection.on(userManagementSectionSelected, (_, section) => section).reset(userManagementOpened);

sample({ clock: userManagementOpened, source: $canOpenUserManagement, filter: Boolean, fn: () => true, target: $userManagementOpen });
