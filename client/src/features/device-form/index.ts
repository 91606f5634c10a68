export {
  $canManageDevices,
  $deviceFormAsk,
  DEVICE_FORM_TITLE,
  addDeviceOpened,
  deviceDeleted,
  deviceSaved,
  editDeviceOpened,
  pinNamed,
  pinPlacedOnMap,
  placeOnMapRequested,
  placingOnMapEnded,
} from './entry';
/** The form with its model, a chunk of its own (device-form-part.tsx): shown from the first time a form is asked for. */
export const loadDeviceFormPart = () => import('./device-form-part');
