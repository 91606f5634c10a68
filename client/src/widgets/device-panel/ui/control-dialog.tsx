import { useUnit } from 'effector-react';
import { useEffect, useId } from 'react';
import { AlertIcon, CheckIcon, Spinner } from '../../../shared/ui';
import { $notice, noticeDismissed, noticeDisplayed } from '../controls.model';
import styles from './control-dialog.module.css';

/**
 * The loading, success or error dialog of spec section 4 for every control of the panel. Not modal on
 * purpose: a slider being dragged or a time being typed keeps its focus while the debounced save runs,
 * and the dialog closes itself about 1 s after the result (the model's timer); × closes it sooner.
 */
export function ControlDialog() {
  const [notice, dismiss, displayed] = useUnit([$notice, noticeDismissed, noticeDisplayed]);
  const titleId = useId();
  // A result on screen: its closing timer starts now (after the commit), not when the store changed.
  const resultSeq = notice && notice.phase !== 'loading' ? notice.seq : null;
  useEffect(() => {
    if (resultSeq !== null) displayed(resultSeq);
  }, [resultSeq, displayed]);
  if (!notice) return null;
  const tone =
    notice.phase === 'danger' ? styles.noticeDanger : notice.phase === 'success' ? styles.noticeSuccess : styles.noticeLoading;
  return (
    <div
      className={[styles.notice, tone].join(' ')}
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      data-testid="control-dialog"
      data-phase={notice.phase}
    >
      <span className={styles.noticeIcon} aria-hidden="true">
        {notice.phase === 'loading' ? (
          <Spinner size={18} />
        ) : notice.phase === 'danger' ? (
          <AlertIcon size={18} />
        ) : (
          <CheckIcon size={18} />
        )}
      </span>
      <span id={titleId} role={notice.phase === 'danger' ? 'alert' : 'status'}>
        {notice.text}
      </span>
      {notice.phase === 'loading' ? null : (
        <button type="button" className={styles.noticeClose} onClick={() => dismiss()} aria-label="Close">
          ×
        </button>
      )}
    </div>
  );
}
