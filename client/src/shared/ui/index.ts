export { Button, LinkButton, type ButtonProps, type LinkButtonProps } from './button/button';
export { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog/confirm-dialog';
export { Dialog, DialogHandOver, type DialogProps } from './dialog/dialog';
export { FormMessage, type FormMessageProps } from './form-message/form-message';
export {
  AlertIcon,
  ArrowLeftIcon,
  BatteryIcon,
  ChevronIcon,
  InfoIcon,
  DualDeviceIcon,
  SearchIcon,
  BuildingIcon,
  CheckIcon,
  CloseIcon,
  ExternalIcon,
  EyeIcon,
  EyeOffIcon,
  LogoMark,
  LogoutIcon,
  MinusIcon,
  PauseIcon,
  PinIcon,
  PlusIcon,
  TruckIcon,
  UsersIcon,
} from './icons/icons';
export { LoadBoundary, type LoadBoundaryProps } from './load-boundary/load-boundary';
export { useLazyPart } from './load-boundary/use-lazy-part';
export { firstShowing } from './load-boundary/first-showing';
export { MapBackdrop } from './map-backdrop/map-backdrop';
export { Panel, PanelTitle } from './panel/panel';
export { panelKit } from './panel-kit/panel-kit';
export { Spinner } from './spinner/spinner';
export { PasswordField, TextField, type PasswordFieldProps, type TextFieldProps } from './text-field/text-field';
export { panelId, tabId, tabPanelProps, Tabs, type TabItem, type TabsProps } from './tabs/tabs';
export { SwitchButton, TickToggle, type SwitchButtonProps, type TickToggleProps } from './toggle/toggle';
export { InfoPage, type InfoPageProps } from './info-page/info-page';
export { Chart, type ChartOptions, type ChartProps } from './chart/chart';
export { CHART_COLORS } from './chart/chart-tokens';
export { VirtualList, type VirtualListProps } from './virtual-list/virtual-list';
export { ResultPopup, type ResultPopupProps } from './result-popup/result-popup';
export { FieldError, FormField, formControlClass, FormTextField, invalidProps, SelectField, type FormFieldProps, type SelectFieldProps } from './form-field/form-field';
export { FormDialog, type FormDialogProps } from './form-dialog/form-dialog';
export { PageFrame, pageText, type PageFrameProps } from './page-frame/page-frame';
export { Card, CardHead, CardTitle, cardClass, SectionTitle, type CardProps } from './card/card';
export { Segmented, type SegmentedOption, type SegmentedProps } from './segmented/segmented';
export { DataTable, dataTableStateClass, type DataColumn, type DataTableProps } from './data-table/data-table';
export { StatusCard, StatusCardHead, StatusPill } from './card/status-card';
export { StateMessage, type StateMessageProps } from './state-message/state-message';
