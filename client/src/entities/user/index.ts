export {
  $clientChoices,
  $clientUsers,
  $clientUsersStatus,
  $pendingUsers,
  $pendingUsersStatus,
  clientUsersCleared,
  clientUsersRequested,
  fetchClientUsersFx,
  fetchPendingUsersFx,
  pendingUserDecided,
  pendingUsersRequested,
  type ListStatus,
} from './model';
export { createAccountForm, type AccountView } from './account-form';
export { AccountFormFrame } from './ui/account-form-frame';
