export {
  $center,
  $labelsVisible,
  $pins,
  $viewRequest,
  $zoom,
  boundsRequested,
  clusterClicked,
  MAX_ZOOM,
  mapMoved,
  mapReset,
  ZOOM_STEP,
  zoomInClicked,
  zoomOutClicked,
  type Bounds,
  type LatLng,
  type ViewRequest,
} from './model';
export { toPinCollection, countsOf, countByStatus, type PinCollection, type PinFeature } from './lib/pins';
export { FleetMap } from './ui/fleet-map';
