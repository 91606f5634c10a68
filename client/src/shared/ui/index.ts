export { Button, LinkButton } from './button/button';
export { ConfirmDialog } from './confirm-dialog/confirm-dialog';
export { Dialog, DialogHandOver } from './dialog/dialog';
export { FormMessage } from './form-message/form-message';
export {
  AlertIcon,
  ArrowLeftIcon,
  BatteryIcon,
  BellIcon,
  ChevronIcon,
  InfoIcon,
  DualDeviceIcon,
  SearchIcon,
  BuildingIcon,
  CheckIcon,
  CloseIcon,
  ExternalIcon,
  LogoMark,
  LogoutIcon,
  MinusIcon,
  PauseIcon,
  PinIcon,
  PlusIcon,
  TruckIcon,
} from './icons/icons';
export { LoadBoundary } from './load-boundary/load-boundary';
export { useLazyPart } from './load-boundary/use-lazy-part';
export { firstShowing } from './load-boundary/first-showing';
export { MapBackdrop } from './map-backdrop/map-backdrop';
export { Panel, PanelTitle } from './panel/panel';
export { panelKit } from './panel-kit/panel-kit';
export { Spinner } from './spinner/spinner';
export { PasswordField, TextField } from './text-field/text-field';
export { tabPanelProps, Tabs, type TabItem } from './tabs/tabs';
export { SwitchButton, TickToggle } from './toggle/toggle';
export { InfoPage } from './info-page/info-page';
export { Chart, type ChartOptions } from './chart/chart';
export { CHART_COLORS } from './chart/chart-tokens';
export { VirtualList, type VirtualListProps } from './virtual-list/virtual-list';
export { ResultPopup } from './result-popup/result-popup';
export { FieldError, FormField, formControlClass, FormTextField, invalidProps, SelectField } from './form-field/form-field';
export { FormDialog } from './form-dialog/form-dialog';
export { PageFrame, pageText } from './page-frame/page-frame';
export { Card, CardHead, CardTitle, cardClass, SectionTitle } from './card/card';
export { Segmented } from './segmented/segmented';
export { DataTable, dataTableStateClass, type DataColumn } from './data-table/data-table';
export { StatusCard, StatusCardHead, StatusPill } from './card/status-card';
export { StateMessage } from './state-message/state-message';
