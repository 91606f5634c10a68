export { MAINTENANCE_CREDENTIAL_KEY, maintenanceCalls, readStoredCredential } from './api';
export { actionsText, navigateUrl, needsOf, phoneDay, remainingText, serialFromCode, siteLine, stockOf } from './lib';
export { outbox, type OutboxEntry, type SnapshotName } from './outbox';
