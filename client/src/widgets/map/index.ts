export {
  $viewRequest,
  boundsRequested,
  mapReset,
  pinPlacingStarted,
  placingFinished,
  placingPinLabelled,
  placingPinMoved,
  zoomInClicked,
  zoomOutClicked,
} from './model';
export { FleetMap } from './ui/fleet-map';
