import type { BatchAnswer, MaintenanceDevice, MaintenanceRecord, MaintenanceRecordInput, ServicePlan } from '@fleet/shared';
import { http } from '../../shared/api';

/**
 * The maintenance calls. `token` is the /maintenance credential when the page runs on it; without one the
 * session token goes (a signed-in user on /maintenance-result).
 */
/** Where /maintenance keeps the credential it runs on: this tab's sessionStorage only. */
export const MAINTENANCE_CREDENTIAL_KEY = 'fleet.maintenanceCredential';
export const readStoredCredential = (): string | null => window.sessionStorage.getItem(MAINTENANCE_CREDENTIAL_KEY);

export type CredentialStatus = { active: number; last_created_at: string | null; source: string | null };

export const maintenanceApi = {
  devices: (token?: string) => http<MaintenanceDevice[]>('/api/v1/maintenanceDevices', token ? { token } : {}),
  /** Those devices of the credential's, whatever their reasons (a scanned code, the day's plan). */
  devicesBySerial: (serials: readonly string[], token?: string) =>
    http<MaintenanceDevice[]>(
      `/api/v1/maintenanceDevices?serials=${serials.map(encodeURIComponent).join(',')}`,
      token ? { token } : {},
    ),
  /** The published service plans of a date (the maintenance credential reads every owner's). */
  plans: (date: string, token?: string) =>
    http<ServicePlan[]>(`/api/v1/servicePlans?date=${encodeURIComponent(date)}`, token ? { token } : {}),
  batches: (token?: string) => http<BatchAnswer[]>('/api/v1/batch', token ? { token } : {}),
  records: (token?: string) => http<MaintenanceRecord[]>('/api/v1/maintenanceRecords', token ? { token } : {}),
  credentialStatus: () => http<CredentialStatus>('/api/v1/maintenanceCredential'),
  rotateCredential: () =>
    http<{ token: string; link: string; revoked: number }>('/api/v1/maintenanceCredential/rotate', { method: 'POST' }),
  revokeCredential: () => http<{ revoked: number }>('/api/v1/maintenanceCredential/revoke', { method: 'POST' }),
  record: (input: MaintenanceRecordInput, token?: string) =>
    http<MaintenanceRecord>('/api/v1/maintenanceRecord', { method: 'POST', json: input, ...(token ? { token } : {}) }),
};
