import type { IScannerControls } from '@zxing/browser';
import { useEffect, useRef, useState } from 'react';
import { Button, Dialog, pageText } from '../../../shared/ui';
import styles from './maintenance-page.module.css';

/**
 * Scan: the phone's back camera in a dialog, read by @zxing/browser until a QR code is seen; the code goes to
 * `onCode` (the label's link or a serial) and the dialog closes. The camera stops whenever the dialog does.
 */
export function ScanDialog({ open, onClose, onCode }: { open: boolean; onClose: () => void; onCode: (text: string) => void }) {
  const video = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState(false);
  useEffect(() => {
    if (!open) return;
    let controls: IScannerControls | null = null;
    let stopped = false;
    setError(null);
    setLive(false);
    // The scanner (about 350 kB) loads on the first Scan, not with the app: the day's plan comes first.
    import('@zxing/browser')
      .then(({ BrowserQRCodeReader }) => new BrowserQRCodeReader(undefined, { delayBetweenScanAttempts: 150 }))
      .then((reader) =>
        reader.decodeFromConstraints({ video: { facingMode: 'environment' } }, video.current!, (result, _err, c) => {
          if (!result || stopped) return;
          stopped = true;
          c.stop();
          onCode(result.getText());
        }),
      )
      .then((c) => {
        controls = c;
        if (stopped) c.stop();
        else setLive(true);
      })
      .catch((e: unknown) => {
        setError(
          `The camera could not be opened (${e instanceof Error ? e.message || e.name : String(e)}). Allow the camera, or type the serial printed under the code.`,
        );
      });
    return () => {
      stopped = true;
      controls?.stop();
    };
  }, [open, onCode]);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Scan a device label"
      width={520}
      actions={
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
      }
    >
      <p className={pageText.meta} role="status">
        {error ? null : live ? 'Point the camera at the QR code on the device.' : 'Opening the camera…'}
      </p>
      {error ? (
        <p role="alert" className={pageText.error}>
          {error}
        </p>
      ) : null}
      <video ref={video} className={styles.video} muted playsInline aria-label="Camera view" data-testid="scan-video" />
    </Dialog>
  );
}
