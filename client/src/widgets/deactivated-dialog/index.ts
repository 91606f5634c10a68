export { $deactivatedDialogOpen, deactivatedDialogOpened } from './model';
export { DeactivatedDialog } from './ui/deactivated-dialog';
