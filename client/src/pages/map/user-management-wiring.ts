import { sample } from 'effector';
import { userManagementRequested } from '../../widgets/profile-panel';
import { userManagementOpened } from '../../widgets/user-management';

/**
 * The profile image opens User Management. Part of User Management's own chunk (ui/user-management-part),
 * loaded when the image is first clicked: this connects the clicks after that one; the part's first
 * showing opens the dialog for the click that loaded it.
 */
sample({ clock: userManagementRequested, target: userManagementOpened });
