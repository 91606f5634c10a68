export { $visibleDevices, pinFilterReset, pinTypeToggled } from './model';
export { ActivePinPanel } from './ui/active-pin-panel';
