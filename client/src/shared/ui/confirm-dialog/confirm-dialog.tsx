import type { ReactNode } from 'react';
import { Button } from '../button/button';
import { Dialog } from '../dialog/dialog';

export type ConfirmDialogProps = {
  open: boolean;
  /** The question, as the spec words it ('Reset tsp ?', 'Switch Off Rental Plan?'). */
  title: string;
  children?: ReactNode;
  onConfirm: () => void;
  /** No, Escape, or a close of the dialog. */
  onCancel: () => void;
};

/** A yes/no question on the portal's dialog: No and Escape cancel, Yes confirms; either closes it. */
export function ConfirmDialog({ open, title, children, onConfirm, onCancel }: ConfirmDialogProps) {
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      title={title}
      actions={
        <>
          <Button variant="secondary" onClick={onCancel}>
            No
          </Button>
          <Button onClick={onConfirm}>Yes</Button>
        </>
      }
    >
      {children}
    </Dialog>
  );
}
