export { SelectedDeviceCard } from './ui/selected-device-card';
