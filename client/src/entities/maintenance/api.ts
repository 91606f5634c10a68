import { batchesApi, maintenanceApi, serviceDayApi, type MaintenanceRecordInput } from '@fleet/shared';
import { call } from '../../shared/api';

/** Where /maintenance keeps the credential it runs on: this tab's sessionStorage only. */
export const MAINTENANCE_CREDENTIAL_KEY = 'fleet.maintenanceCredential';
export const readStoredCredential = (): string | null => window.sessionStorage.getItem(MAINTENANCE_CREDENTIAL_KEY);

/**
 * The maintenance calls, declared in shared/src/api/maintenance.ts. `token` is the /maintenance credential
 * when the page runs on it; without one the session token goes (a signed-in user on /maintenance-result).
 */
export const maintenanceCalls = {
  devices: (token?: string) => call(maintenanceApi.devices, { token }),
  /** Those devices of the credential's, whatever their reasons (a scanned code, the day's plan). */
  devicesBySerial: (serials: readonly string[], token?: string) =>
    call(maintenanceApi.devices, { query: { serials: serials.join(',') }, token }),
  /** The published service plans of a date (the maintenance credential reads every owner's). */
  plans: (date: string, token?: string) => call(serviceDayApi.plans, { query: { date }, token }),
  batches: (token?: string) => call(batchesApi.list, { token }),
  records: (token?: string) => call(maintenanceApi.records, { token }),
  credentialStatus: () => call(maintenanceApi.credential),
  rotateCredential: () => call(maintenanceApi.rotateCredential),
  revokeCredential: () => call(maintenanceApi.revokeCredential),
  record: (body: MaintenanceRecordInput, token?: string) => call(maintenanceApi.record, { body, token }),
};
