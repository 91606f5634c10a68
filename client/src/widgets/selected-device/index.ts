export { SelectedDeviceCard } from './ui/selected-device-card';
export { $panelShown, deviceManagerRequested, panelShownChanged } from './model';
