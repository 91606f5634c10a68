import { useUnit } from 'effector-react';
import { UserManagementDialog, userManagementOpened } from '../../../widgets/user-management';
import { firstShowing } from '../../../shared/ui';
import '../user-management-wiring';

/** The click that loaded this chunk is answered once, by the part's first showing (later clicks: the wiring). */
const useFirstShowing = firstShowing();

/**
 * User Management with its models (the sign-up requests, the request detail and decisions, Account
 * Settings: about 130 effector units and their forms), in a chunk of its own loaded on the first click of
 * the profile image, not evaluated with the map page on every sign-in (issue 16).
 */
export default function UserManagementPart() {
  const opened = useUnit(userManagementOpened);
  useFirstShowing(() => opened());
  return <UserManagementDialog />;
}
