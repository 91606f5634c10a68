export {
  $clientChoices,
  $clientUsers,
  $clientUsersStatus,
  $pendingUsers,
  $pendingUsersStatus,
  clientChoices,
  clientUsersCleared,
  clientUsersRequested,
  fetchClientUsersFx,
  fetchPendingUsersFx,
  pendingUserDecided,
  pendingUsersRequested,
  type ClientChoice,
  type ListStatus,
} from './model';
export { answerView, createAccountForm, draftOf, editUserForm, type AccountDraft, type AccountFormModel, type AccountView } from './account-form';
export { AccountForm } from './ui/account-form';
export { AccountFormFrame } from './ui/account-form-frame';
