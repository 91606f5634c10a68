import { INVOICE_OVERDUE_DEACTIVATION_DAYS } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { AlertIcon, Button, Dialog } from '../../../shared/ui';
import { $deactivatedDialogOpen, deactivatedDialogClosed } from '../model';

/** The dialog's width on wide screens, per the spec. */
export const DEACTIVATED_DIALOG_WIDTH = 585;

/** 'Account Deactivated': why (an overdue invoice), what to do (pay it) and what happens then. */
export function DeactivatedDialog() {
  const [open, onClose] = useUnit([$deactivatedDialogOpen, deactivatedDialogClosed]);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      width={DEACTIVATED_DIALOG_WIDTH}
      tone="danger"
      icon={<AlertIcon size={22} />}
      title="Account Deactivated"
      actions={
        <Button onClick={onClose} autoFocus>
          Close
        </Button>
      }
    >
      <p>Your account has been deactivated because your invoice is {INVOICE_OVERDUE_DEACTIVATION_DAYS} days over its due date.</p>
      <p>
        Please pay the invoice sent to you by our payment provider. Your account will be re-activated automatically once the
        payment has been received.
      </p>
      <p>If you have any questions, please contact our support team.</p>
    </Dialog>
  );
}
