export { Button, LinkButton, type ButtonProps, type LinkButtonProps } from './button/button';
export { Dialog, type DialogProps } from './dialog/dialog';
export { FormMessage, type FormMessageProps } from './form-message/form-message';
export { AlertIcon, BuildingIcon, EyeIcon, EyeOffIcon, LogoMark, LogoutIcon, TruckIcon } from './icons/icons';
export { MapBackdrop } from './map-backdrop/map-backdrop';
export { Spinner } from './spinner/spinner';
export { PasswordField, TextField, type PasswordFieldProps, type TextFieldProps } from './text-field/text-field';
export { panelId, tabId, tabPanelProps, Tabs, type TabItem, type TabsProps } from './tabs/tabs';
