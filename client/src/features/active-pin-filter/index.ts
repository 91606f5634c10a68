export {
  $enabledPinTypes,
  $pinTypeCounts,
  $placedDevices,
  $visibleDevices,
  filterPins,
  pinFilterReset,
  pinTypeToggled,
  type EnabledPinTypes,
} from './model';
export { ActivePinPanel } from './ui/active-pin-panel';
