import { useId, type ReactNode } from 'react';
import { Button } from '../button/button';
import { Dialog } from '../dialog/dialog';

export type FormDialogProps = {
  open: boolean;
  onClose: () => void;
  onSubmit: () => void;
  title: string;
  /** The form's accessible name. */
  formLabel: string;
  saving: boolean;
  width?: number;
  className?: string;
  /** Buttons before CANCEL (the edit dialogs' DELETE). */
  extraActions?: ReactNode;
  children: ReactNode;
};

/** A form in the portal's dialog with CANCEL and SAVE (Enter submits; SAVE spins while saving). */
export function FormDialog({
  open,
  onClose,
  onSubmit,
  title,
  formLabel,
  saving,
  width = 520,
  className,
  extraActions,
  children,
}: FormDialogProps) {
  const formId = useId();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={title}
      width={width}
      actions={
        <>
          {extraActions}
          <Button variant="secondary" onClick={() => onClose()}>
            CANCEL
          </Button>
          <Button type="submit" form={formId} loading={saving}>
            SAVE
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className={className}
        noValidate
        aria-label={formLabel}
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
      </form>
    </Dialog>
  );
}
