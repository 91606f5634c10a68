import { formatNumber, plural } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { Button, Dialog, ResultPopup } from '../../../shared/ui';
import {
  $affectedDevices,
  $affectedHasMore,
  $affectedStatus,
  $affectedTotal,
  affectedMoreRequested,
  $pauseDevices,
  $recallPending,
  $recallQuestion,
  pauseDevicesToggled,
  recallCancelled,
  recallConfirmed,
  recallResult,
  resumeConfirmed,
} from '../model';
import styles from './recall-batch.module.css';

/** The recall and resume questions and their answers. Mount once beside the Batch List. */
export function RecallBatchDialogs() {
  const [question, devices, total, status, hasMore, pause, pending, result] = useUnit([
    $recallQuestion,
    $affectedDevices,
    $affectedTotal,
    $affectedStatus,
    $affectedHasMore,
    $pauseDevices,
    $recallPending,
    recallResult.$result,
  ]);
  const [togglePause, cancel, recall, resume, closeResult, showMore] = useUnit([
    pauseDevicesToggled,
    recallCancelled,
    recallConfirmed,
    resumeConfirmed,
    recallResult.closed,
    affectedMoreRequested,
  ]);
  const recalling = question?.kind === 'recall';
  const number = question?.batch.batch_no ?? '';
  return (
    <>
      <Dialog
        open={question !== null}
        onClose={cancel}
        title={recalling ? `Recall BATCH ${number}?` : `Resume BATCH ${number}?`}
        tone={recalling ? 'danger' : 'default'}
        width={520}
        actions={
          <>
            <Button variant="secondary" onClick={() => cancel()}>
              Cancel
            </Button>
            <Button
              variant={recalling ? 'danger' : 'primary'}
              loading={pending}
              onClick={() => (recalling ? recall() : resume())}
            >
              {recalling ? 'RECALL' : 'RESUME'}
            </Button>
          </>
        }
      >
        {recalling ? (
          <p>
            Every device fed by this batch will show a recall warning, and each client company of their brands is mailed a notice.
          </p>
        ) : (
          <p>The recall warning is lifted from these devices. Devices paused by the recall stay paused until each is resumed.</p>
        )}
        {status === 'failed' ? (
          <p className={styles.none}>The devices fed by this batch could not be read.</p>
        ) : total === null ? (
          <p className={styles.none}>Reading the devices fed by this batch…</p>
        ) : (
          <DeviceList devices={devices} total={total} more={hasMore ? () => showMore() : undefined} />
        )}
        {recalling && total ? (
          <label className={styles.check}>
            <input type="checkbox" checked={pause} onChange={(e) => togglePause(e.target.checked)} />
            Also pause {total === 1 ? 'this device' : `these ${plural(total, 'device')}`}
          </label>
        ) : null}
      </Dialog>

      <ResultPopup result={result} onClose={closeResult} testId="recall-result">
        {result?.answer && result.answer.devices.length > 0 ? <DeviceList devices={result.answer.devices} /> : null}
        {result?.kind === 'recall' && result.answer && result.answer.notified.length > 0 ? (
          <p className={styles.notified}>
            Notified: {result.answer.notified.map((n) => `${n.company || n.name} (${n.email})`).join(', ')}
          </p>
        ) : null}
      </ResultPopup>
    </>
  );
}

/** The devices listed, `total` of them (the question reads them a page at a time: `more` reads the next). */
function DeviceList({
  devices,
  total = devices.length,
  more,
}: {
  devices: readonly { serial: string; label: string; address: string; is_pause: boolean }[];
  total?: number;
  more?: (() => void) | undefined;
}) {
  if (total === 0) return <p className={styles.none}>No device is fed by this batch.</p>;
  return (
    <div className={styles.devices}>
      <p className={styles.count} data-testid="recall-devices-count">
        {plural(total, 'device')}
      </p>
      <ul className={styles.list} aria-label="Devices fed by this batch" data-testid="recall-devices" tabIndex={0}>
        {devices.map((d) => (
          <li key={d.serial} data-serial={d.serial}>
            <b>{d.label || 'NoName'}</b> <span className={styles.serial}>S/N {d.serial}</span>
            {d.is_pause ? <span className={styles.paused}>PAUSED</span> : null}
            <span className={styles.address}>{d.address}</span>
          </li>
        ))}
      </ul>
      {more ? (
        <Button variant="secondary" onClick={more}>
          Show more ({formatNumber(total - devices.length)} left)
        </Button>
      ) : null}
    </div>
  );
}
