export { EmailSetupDialog } from './ui/email-setup-dialog';
export { emailSetupOpened } from './model';
