export { DeviceFormDialog } from './ui/device-form-dialog';
export { $canManageDevices, addDeviceOpened, deviceDeleted, deviceFormClosed, deviceSaved, editDeviceOpened } from './model';
