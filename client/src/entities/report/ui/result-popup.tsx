import { AlertIcon, Button, CheckIcon, Dialog } from '../../../shared/ui';
import type { ReportResult } from '../model';

/** A result popup of the report screens ('EMAIL ADDED', 'FAIL TO DELETE EMAIL' ...): it closes itself, or with OK. */
export function ResultPopup({ result, onClose, testId }: { result: ReportResult | null; onClose: () => void; testId: string }) {
  const danger = result?.tone === 'danger';
  return (
    <Dialog
      open={result !== null}
      onClose={onClose}
      title={result?.title ?? ''}
      tone={danger ? 'danger' : 'default'}
      icon={danger ? <AlertIcon /> : <CheckIcon />}
      width={380}
      actions={<Button onClick={onClose}>OK</Button>}
    >
      <p data-testid={testId} data-tone={result?.tone}>
        {result?.message ?? (danger ? 'Nothing was changed.' : 'Done.')}
      </p>
    </Dialog>
  );
}
