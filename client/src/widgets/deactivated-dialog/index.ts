export { $deactivatedDialogOpen, deactivatedDialogClosed, deactivatedDialogOpened } from './model';
export { DEACTIVATED_DIALOG_WIDTH, DeactivatedDialog } from './ui/deactivated-dialog';
