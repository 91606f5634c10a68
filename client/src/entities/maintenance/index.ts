export { MAINTENANCE_CREDENTIAL_KEY, maintenanceApi, readStoredCredential, type CredentialStatus } from './api';
export { actionsText, needsOf, remainingText, siteLine } from './lib';
export { outbox, type OutboxEntry } from './outbox';
