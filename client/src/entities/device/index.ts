export { fetchDevices } from './api/device-api';
export { countDevices, type Device, type DeviceCounts } from './model/device';
export { useDevices, type DevicesState } from './model/use-devices';
