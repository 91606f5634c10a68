import { useUnit } from 'effector-react';
import { useEffect, useState } from 'react';
import { actionsText, siteLine } from '../../../entities/maintenance';
import { siteTime } from '../../../shared/lib';
import { Button, ConfirmDialog, PageFrame, pageText } from '../../../shared/ui';
import {
  $credentialMessage,
  $credentialPending,
  $credentialStatus,
  $error,
  $newCredential,
  $records,
  $status,
  newCredentialDismissed,
  pageMounted,
  retryClicked,
  revokeConfirmed,
  rotateClicked,
} from '../model';
import styles from './maintenance-result-page.module.css';

/** /maintenance-result: what technicians did, newest first, each time in its site's zone (named). */
export function MaintenanceResultPage() {
  const [records, status, error, mounted, retry] = useUnit([$records, $status, $error, pageMounted, retryClicked]);
  useEffect(() => {
    mounted();
    document.title = 'Maintenance result';
  }, [mounted]);

  return (
    <PageFrame
      title="Maintenance result"
      lead="What was done on each device, most recent first. Times are in each site's own time zone, named after the time."
      actions={
        <a className={pageText.back} href="/">
          Back to the map
        </a>
      }
    >
      <CredentialPanel />
      <main>
        {status === 'loading' || status === 'idle' ? (
          <p role="status" className={pageText.meta}>
            Loading…
          </p>
        ) : null}
        {status === 'signed-out' ? (
          <p className={[pageText.empty, styles.notice].join(' ')}>
            Sign in to the portal to see what was done. <a href="/">Sign in</a>
          </p>
        ) : null}
        {status === 'failed' && error ? (
          <p role="alert" className={pageText.error}>
            {error}{' '}
            <Button variant="secondary" onClick={() => retry()}>
              Try again
            </Button>
          </p>
        ) : null}
        {status === 'ready' && records.length === 0 ? (
          <p className={pageText.empty}>No maintenance has been recorded yet.</p>
        ) : null}
        {records.length ? (
          <div className={styles.scroll}>
            <table className={pageText.table} aria-label="Maintenance done">
              <thead>
                <tr>
                  <th scope="col">When (site time)</th>
                  <th scope="col">Device</th>
                  <th scope="col">Site</th>
                  <th scope="col">Work done</th>
                  <th scope="col">Note</th>
                  <th scope="col">By</th>
                </tr>
              </thead>
              <tbody>
                {records.map((r) => (
                  <tr key={r.id} data-testid="maintenance-record">
                    <td className={styles.when}>{siteTime(r.performed_at, r.site?.timezone_id ?? 'UTC')}</td>
                    <th scope="row">
                      {r.label || 'NoName'} <span className={styles.serial}>{r.serial}</span>
                    </th>
                    <td>{r.site ? siteLine(r.site) : 'No site'}</td>
                    <td>{actionsText(r.actions)}</td>
                    <td>{r.note || '—'}</td>
                    <td>{r.recorded_by === 'maintenance' ? 'Maintenance technician' : r.recorded_by}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : null}
      </main>
    </PageFrame>
  );
}

/** For distributors: the /maintenance credential, rotated (the new one shown once) or revoked. */
function CredentialPanel() {
  const [status, fresh, message, pending, rotate, revoke, dismiss] = useUnit([
    $credentialStatus,
    $newCredential,
    $credentialMessage,
    $credentialPending,
    rotateClicked,
    revokeConfirmed,
    newCredentialDismissed,
  ]);
  const [confirming, setConfirming] = useState(false);
  if (!status) return null;
  return (
    <section className={styles.credential} aria-labelledby="credential-title">
      <h2 id="credential-title" className={styles.panelTitle}>
        Maintenance access
      </h2>
      <p className={pageText.meta}>
        {status.active
          ? `A maintenance credential is active (${status.source === 'configuration' ? 'from the server configuration' : 'made by a distributor'}). Technicians open /maintenance with it.`
          : 'No maintenance credential is active: /maintenance opens for nobody until you make a new one.'}
      </p>
      <div className={pageText.tools}>
        <Button variant="secondary" onClick={() => rotate()} loading={pending}>
          Make a new credential
        </Button>
        <Button variant="danger" onClick={() => setConfirming(true)} disabled={!status.active || pending}>
          Revoke access
        </Button>
      </div>
      {message ? (
        <p
          role={message.tone === 'danger' ? 'alert' : 'status'}
          className={message.tone === 'danger' ? pageText.error : pageText.success}
        >
          {message.text}
        </p>
      ) : null}
      {fresh ? (
        <div className={styles.fresh}>
          <p>Give this link to the technician; it is shown only now (the server keeps a hash):</p>
          <code className={styles.code} data-testid="maintenance-link">
            {fresh.link}
          </code>
          <Button variant="secondary" onClick={() => dismiss()}>
            Done
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title="Revoke maintenance access?"
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          revoke();
        }}
      >
        <p>/maintenance will refuse the current credential at once.</p>
      </ConfirmDialog>
    </section>
  );
}
