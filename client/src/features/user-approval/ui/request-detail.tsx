import { useUnit } from 'effector-react';
import { AccountFormFrame } from '../../../entities/user';
import { ArrowLeftIcon, Button, ConfirmDialog, LinkButton, ResultPopup } from '../../../shared/ui';
import {
  $deciding,
  $detailMode,
  $rejectConfirmOpen,
  activateClicked,
  decisionPopup,
  detailClosed,
  rejectCancelled,
  rejectClicked,
  rejectConfirmed,
  requestForm,
} from '../model';
import styles from './request-detail.module.css';

/**
 * Request detail (a sign-up request: Reject, Edit Request, Activate Account; editing: Save, Cancel)
 * and Edit Account (a client: always editable, Save and Cancel). Back returns to the lists.
 */
export function RequestDetail() {
  const [mode, account, saving, deciding, confirmOpen] = useUnit([
    $detailMode,
    requestForm.$account,
    requestForm.$saving,
    $deciding,
    $rejectConfirmOpen,
  ]);
  const [close, edit, activate, reject, confirmReject, cancelReject] = useUnit([
    detailClosed,
    requestForm.editStarted,
    activateClicked,
    rejectClicked,
    rejectConfirmed,
    rejectCancelled,
  ]);
  if (!mode || !account) return null;
  const busy = deciding !== null || saving;
  const title = mode === 'request' ? 'Request Detail' : 'Edit Account';

  return (
    <section className={styles.detail} aria-labelledby="request-detail-title" data-testid="request-detail" data-mode={mode}>
      <div className={styles.header}>
        <LinkButton className={styles.back} onClick={() => close()} disabled={busy}>
          <ArrowLeftIcon size={16} /> Back to list
        </LinkButton>
        <h3 id="request-detail-title" className={styles.title}>
          {title}
        </h3>
      </div>
      <AccountFormFrame
        model={requestForm}
        idPrefix="request"
        onCancel={mode === 'account' ? () => close() : undefined}
        actions={
          <>
            <Button variant="danger" loading={deciding === 'reject'} disabled={busy} onClick={() => reject()}>
              Reject
            </Button>
            <Button variant="secondary" disabled={busy} onClick={() => edit()}>
              Edit Request
            </Button>
            <Button variant="success" loading={deciding === 'activate'} disabled={busy} onClick={() => activate()}>
              Activate Account
            </Button>
          </>
        }
      />
      <ConfirmDialog
        open={confirmOpen}
        title="Reject this sign-up request?"
        onConfirm={() => confirmReject()}
        onCancel={() => cancelReject()}
      >
        <p>{account.email} will not be able to sign in, and will be told by email.</p>
      </ConfirmDialog>
    </section>
  );
}

/** '{email} has been activated!' / '{email} has been rejected!', or what went wrong; closes itself. */
export function DecisionPopup() {
  const [result, close] = useUnit([decisionPopup.$result, decisionPopup.closed]);
  return <ResultPopup result={result} onClose={() => close()} testId="decision-result" />;
}
