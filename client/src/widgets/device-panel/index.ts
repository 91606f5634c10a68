export { DevicePanel } from './ui/device-panel';
export {
  $groupDevices,
  $panelDevice,
  $panelSerial,
  $section,
  $smsLog,
  DEVICE_QUERY,
  panelClosed,
  panelDeviceSelected,
  panelOpened,
  panelRouteRead,
  sectionSelected,
  type PanelDevice,
  type PanelSection,
} from './model';
