export { DevicePanel } from './ui/device-panel';
export { $panelSerial, panelClosed, panelOpened, panelRouteRead } from './model';
