import { http } from '../../../shared/api';
import type { Device } from '../model/device';

/** GET /api/v1/device: every placed device in the caller's scope. */
export const fetchDevices = (signal?: AbortSignal) => http<Device[]>('/api/v1/device', signal ? { signal } : {});
