export {
  $canManageDevices,
  $deviceFormAsk,
  DEVICE_FORM_TITLE,
  addDeviceOpened,
  deviceDeleted,
  deviceFormClosed,
  deviceSaved,
  editDeviceOpened,
  pinNamed,
  pinPlacedOnMap,
  placeOnMapRequested,
  placingOnMapEnded,
  type DeviceFormAsk,
  type LatLngPoint,
} from './entry';
/** The form with its model, a chunk of its own (device-form-part.tsx): shown from the first time a form is asked for. */
export const loadDeviceFormPart = () => import('./device-form-part');
