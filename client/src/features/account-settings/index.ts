export { accountSettingsHidden, accountSettingsShown } from './model';
export { AccountSettings } from './ui/account-settings';
