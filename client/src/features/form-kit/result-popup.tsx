import type { ReactNode } from 'react';
import { AlertIcon, Button, CheckIcon, Dialog } from '../../shared/ui';
import type { FormResult } from './model';

/** The popup of a createResultPopup: title and message in the spec's words, OK closes it early. */
export function ResultPopup({ result, onClose, testId, children }: { result: Omit<FormResult, 'seq'> | null; onClose: () => void; testId: string; children?: ReactNode }) {
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
      <div data-testid={testId} data-tone={result?.tone}>
        {result?.message ? <p>{result.message}</p> : null}
        {children}
      </div>
    </Dialog>
  );
}
