export { $clientChoices, $clientUsers, clientChoices, clientUsersCleared, clientUsersRequested, fetchClientUsersFx, type ClientChoice } from './model';
