import { useUnit } from 'effector-react';
import { AlertIcon, Button, CheckIcon, Dialog, Spinner } from '../../../shared/ui';
import { $error, $recipients, $step, EMAIL_TEXT, emailDialogClosed, sendConfirmed, type EmailStep } from '../model';

const TITLE: Record<EmailStep, string> = {
  closed: '',
  reading: EMAIL_TEXT.confirm,
  empty: EMAIL_TEXT.listEmpty,
  confirm: EMAIL_TEXT.confirm,
  sending: EMAIL_TEXT.sending,
  sent: EMAIL_TEXT.sent,
  error: EMAIL_TEXT.failed,
};

/** 'Send email?' No/Yes, 'Sending Email', 'Email has been sent !' or 'Email Failed to Sent !'; 'Email List Empty !'. */
export function EmailReportDialog() {
  const [step, recipients, error, confirm, close] = useUnit([$step, $recipients, $error, sendConfirmed, emailDialogClosed]);
  const danger = step === 'error' || step === 'empty';
  const actions =
    step === 'confirm' ? (
      <>
        <Button variant="secondary" onClick={() => close()}>
          No
        </Button>
        <Button onClick={() => confirm()}>Yes</Button>
      </>
    ) : step === 'reading' ? (
      <Button variant="secondary" onClick={() => close()}>
        No
      </Button>
    ) : step === 'error' ? (
      <>
        <Button variant="secondary" onClick={() => confirm()}>
          Try again
        </Button>
        <Button onClick={() => close()}>Close</Button>
      </>
    ) : step === 'empty' || step === 'sent' ? (
      <Button onClick={() => close()}>OK</Button>
    ) : null;
  return (
    <Dialog
      open={step !== 'closed'}
      onClose={close}
      title={TITLE[step]}
      tone={danger ? 'danger' : 'default'}
      icon={step === 'sent' ? <CheckIcon /> : danger ? <AlertIcon /> : undefined}
      width={440}
      actions={actions}
    >
      <div data-testid="email-report-dialog" data-step={step}>
        {step === 'confirm' ? <p>The report goes to {recipients.join(', ')}.</p> : null}
        {step === 'reading' ? (
          <p role="status" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
            <Spinner size={20} /> {EMAIL_TEXT.reading}
          </p>
        ) : null}
        {step === 'sending' ? (
          <p role="status" style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
            <Spinner size={20} /> {EMAIL_TEXT.sending}
          </p>
        ) : null}
        {step === 'sent' ? (
          <p role="status">
            {EMAIL_TEXT.emailSent} {recipients.join(', ')}
          </p>
        ) : null}
        {step === 'error' ? <p role="alert">{error}</p> : null}
        {step === 'empty' ? <p role="alert">Add an address in Email Setup, or turn one on, to mail this report.</p> : null}
      </div>
    </Dialog>
  );
}
