import { useEffect, useRef, useState } from 'react';
import { failureMessage } from '../../../shared/api';
import { Button } from '../../../shared/ui';
import { fetchLabels, type LabelsQuery } from '../api';
import styles from './labels-actions.module.css';

type Step =
  | { kind: 'idle' }
  | { kind: 'loading'; action: 'pdf' | 'print' }
  | { kind: 'done'; message: string }
  | { kind: 'failed'; message: string };

/**
 * Two ways to the QR labels of `query`: "Labels PDF" saves the PDF (to print later or share), "Print
 * labels" opens the browser's print view of it at once (the PDF in a hidden frame). The answer of each
 * (loading, done, failed with the reason) shows beside the buttons. Local state: a click's answer belongs
 * to this one pair of buttons, nothing else in the page reads it.
 */
export function LabelsActions({ query, name, what }: { query: LabelsQuery; name: string; what: string }) {
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const frame = useRef<HTMLIFrameElement | null>(null);
  useEffect(
    () => () => {
      frame.current?.remove();
    },
    [],
  );

  async function run(action: 'pdf' | 'print') {
    setStep({ kind: 'loading', action });
    try {
      const blob = await fetchLabels(query);
      const url = URL.createObjectURL(blob);
      if (action === 'pdf') {
        const link = document.createElement('a');
        link.href = url;
        link.download = `labels-${name.replace(/[^A-Za-z0-9_-]+/g, '-')}.pdf`;
        document.body.append(link);
        link.click();
        link.remove();
        window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
        setStep({ kind: 'done', message: 'Labels PDF saved.' });
      } else {
        frame.current?.remove();
        const iframe = document.createElement('iframe');
        iframe.title = `Labels of ${what}`;
        iframe.className = styles.frame!;
        iframe.src = url;
        iframe.onload = () => iframe.contentWindow?.print();
        document.body.append(iframe);
        frame.current = iframe;
        setStep({ kind: 'done', message: 'Print view opened.' });
      }
    } catch (error) {
      setStep({ kind: 'failed', message: `The labels could not be made: ${failureMessage(error)}` });
    }
  }

  return (
    <div className={styles.actions}>
      <Button
        variant="secondary"
        onClick={() => void run('pdf')}
        loading={step.kind === 'loading' && step.action === 'pdf'}
        aria-label={`Labels PDF of ${what}`}
      >
        Labels PDF
      </Button>
      <Button
        variant="secondary"
        onClick={() => void run('print')}
        loading={step.kind === 'loading' && step.action === 'print'}
        aria-label={`Print labels of ${what}`}
      >
        Print labels
      </Button>
      <span role="status" className={step.kind === 'failed' ? styles.error : styles.status}>
        {step.kind === 'done' || step.kind === 'failed' ? step.message : ''}
      </span>
    </div>
  );
}
