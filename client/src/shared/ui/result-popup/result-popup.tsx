import type { ReactNode } from 'react';
import { Button } from '../button/button';
import { Dialog } from '../dialog/dialog';
import { AlertIcon, CheckIcon } from '../icons/icons';

export type ResultPopupProps = {
  /** Title and message in the spec's words; null keeps the popup closed. */
  result: { tone: 'success' | 'danger'; title: string; message: string | null } | null;
  onClose: () => void;
  testId: string;
  /** More to read under the message (the devices a recall paused). */
  children?: ReactNode;
};

/**
 * The popup that says how a call went ('DEVICE ADDED', 'FAIL TO DELETE EMAIL' ...): a dialog titled with
 * the result, its message announced as a status, or as an alert when it failed; OK closes it early and the
 * dialog hands focus back to where it was.
 */
export function ResultPopup({ result, onClose, testId, children }: ResultPopupProps) {
  const danger = result?.tone === 'danger';
  return (
    <Dialog
      open={result !== null}
      onClose={onClose}
      title={result?.title ?? ''}
      tone={danger ? 'danger' : 'default'}
      icon={danger ? <AlertIcon /> : <CheckIcon />}
      width={440}
      actions={<Button onClick={() => onClose()}>OK</Button>}
    >
      <div data-testid={testId} data-tone={result?.tone} role={danger ? 'alert' : 'status'}>
        {result?.message ? <p>{result.message}</p> : null}
        {children}
      </div>
    </Dialog>
  );
}
