export { DEACTIVATED_DIALOG_WIDTH, DeactivatedDialog, type DeactivatedDialogProps } from './ui/deactivated-dialog';
