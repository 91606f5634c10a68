/** The fields of a GET /api/v1/device answer the client reads so far (the answer carries more). */
export type Device = {
  id: number;
  serial: string;
  label: string | null;
  is_online: boolean;
  is_pause: boolean;
  is_warning: boolean;
  location: { lat: number; lng: number } | null;
};

export type DeviceCounts = { total: number; online: number; offline: number };

export function countDevices(devices: readonly Pick<Device, 'is_online'>[]): DeviceCounts {
  const online = devices.filter((d) => d.is_online).length;
  return { total: devices.length, online, offline: devices.length - online };
}
