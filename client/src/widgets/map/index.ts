export {
  $viewRequest,
  boundsRequested,
  mapReset,
  zoomInClicked,
  zoomOutClicked,
} from './model';
export { FleetMap } from './ui/fleet-map';
