import { useUnit } from 'effector-react';
import { AlertIcon, Button, CheckIcon, Dialog, Spinner } from '../../../shared/ui';
import { $error, $fileName, $format, $step, DOWNLOAD_TEXT, downloadClosed, formatChosen } from '../model';
import styles from './download-dialog.module.css';

/** The report download dialog: PDF or EXCEL, loading, downloaded or failed. */
export function DownloadDialog() {
  const [step, format, error, fileName, choose, close] = useUnit([
    $step,
    $format,
    $error,
    $fileName,
    formatChosen,
    downloadClosed,
  ]);
  const failed = step === 'error';
  return (
    <Dialog
      open={step !== 'closed'}
      onClose={close}
      title={step === 'done' ? DOWNLOAD_TEXT.done : failed ? DOWNLOAD_TEXT.failed : DOWNLOAD_TEXT.title}
      tone={failed ? 'danger' : 'default'}
      icon={step === 'done' ? <CheckIcon /> : failed ? <AlertIcon /> : undefined}
      width={420}
      actions={
        step === 'loading' ? null : (
          <>
            {failed && format ? (
              <Button variant="secondary" onClick={() => choose(format)}>
                Try again
              </Button>
            ) : null}
            <Button variant={step === 'choose' ? 'secondary' : 'primary'} onClick={() => close()}>
              {step === 'choose' ? 'Cancel' : 'Close'}
            </Button>
          </>
        )
      }
    >
      <div data-testid="download-dialog" data-step={step}>
        {step === 'choose' ? (
          <>
            <p className={styles.lead}>{DOWNLOAD_TEXT.choose}</p>
            <div className={styles.choices}>
              <Button onClick={() => choose('pdf')}>PDF</Button>
              <Button onClick={() => choose('xlsx')}>EXCEL</Button>
            </div>
          </>
        ) : null}
        {step === 'loading' ? (
          <p className={styles.loading} role="status">
            <Spinner size={20} /> {DOWNLOAD_TEXT.loading}
          </p>
        ) : null}
        {step === 'done' ? <p role="status">Saved as {fileName}.</p> : null}
        {failed ? <p role="alert">{error}</p> : null}
      </div>
    </Dialog>
  );
}
