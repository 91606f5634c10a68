import { plural } from '@fleet/shared';
import type { BatchAnswer } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useEffect } from 'react';
import { batchLabel, batchTone, formatDay, formatFlOz } from '../../../entities/batch';
import { $canManageBatches, batchAddOpened, batchEditOpened, BatchFormDialog } from '../../../features/batch-form';
import { RecallBatchDialogs, recallRequested, resumeRequested } from '../../../features/recall-batch';
import { panelKit, PlusIcon, StateMessage, StatusCard, StatusCardHead, StatusPill } from '../../../shared/ui';
import {
  $batchBrandFilter,
  $batchBrandOptions,
  $batchListStatus,
  $visibleBatches,
  batchBrandFilterChanged,
  batchListOpened,
  batchListRetried,
} from '../model';
import styles from './batch-list.module.css';

/**
 * BATCH LIST tab of the main dashboard (spec section 2 'Batch List'): a Brand filter, the add-batch button
 * (distributors only: clients have none, market partners cannot write batches either), and one card per
 * batch in its state's colour with RECALL (RESUME once recalled) and EDIT.
 */
export function BatchListTab() {
  const [batches, status, brands, brand, canManage] = useUnit([
    $visibleBatches,
    $batchListStatus,
    $batchBrandOptions,
    $batchBrandFilter,
    $canManageBatches,
  ]);
  const [opened, setBrand, add, retry] = useUnit([batchListOpened, batchBrandFilterChanged, batchAddOpened, batchListRetried]);
  useEffect(() => {
    opened();
  }, [opened]);

  return (
    <div className={panelKit.subView} data-testid="batch-list">
      <div className={panelKit.toolbar}>
        <label className={panelKit.field}>
          <span className={panelKit.fieldLabel}>Brand</span>
          <select
            className={panelKit.select}
            value={brand ?? ''}
            onChange={(e) => setBrand(e.target.value ? Number(e.target.value) : null)}
          >
            <option value="">All</option>
            {brands.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </select>
        </label>
        {canManage ? (
          <button type="button" className={panelKit.addButton} onClick={() => add()} aria-label="Add batch" title="Add a batch">
            <PlusIcon size={18} />
            <span aria-hidden="true">Add batch</span>
          </button>
        ) : null}
      </div>
      {status === 'loading' && batches.length === 0 ? (
        <StateMessage status="loading">Loading batches…</StateMessage>
      ) : status === 'failed' ? (
        <StateMessage status="failed" onRetry={() => retry()}>
          The batches could not be loaded.
        </StateMessage>
      ) : batches.length === 0 ? (
        <StateMessage status="empty">No batches{brand !== null ? ' for this brand' : ''}.</StateMessage>
      ) : (
        <ul className={styles.cards} aria-label="Batches">
          {batches.map((b) => (
            <li key={b.id}>
              <BatchCard batch={b} canManage={canManage} />
            </li>
          ))}
        </ul>
      )}
      <BatchFormDialog />
      <RecallBatchDialogs />
    </div>
  );
}

function BatchCard({ batch, canManage }: { batch: BatchAnswer; canManage: boolean }) {
  const [edit, recall, resume] = useUnit([batchEditOpened, recallRequested, resumeRequested]);
  const tone = batchTone(batch);
  const titleId = `batch-${batch.id}-title`;
  return (
    <StatusCard
      className={styles.card}
      data-tone={tone}
      data-expired={batch.status === 'EXPIRED' || undefined}
      data-batch={batch.batch_no}
      aria-labelledby={titleId}
    >
      <StatusCardHead>
        <h3 id={titleId} className={styles.number}>
          BATCH {batch.batch_no}
        </h3>
        <StatusPill data-testid="batch-state">{batchLabel(batch)}</StatusPill>
      </StatusCardHead>
      <p className={styles.meta}>
        {batch.batch_type_name}
        {batch.brand_lists.length ? ` · ${batch.brand_lists.map((b) => b.name).join(', ')}` : ''}
        {batch.device_count ? ` · ${plural(batch.device_count, 'device')}` : ''}
      </p>
      <dl className={styles.facts}>
        <div>
          <dt>Remain</dt>
          <dd>{formatFlOz(batch.remain_fl_oz)}</dd>
        </div>
        <div>
          <dt>Total Volume</dt>
          <dd>{formatFlOz(batch.batchVolume)}</dd>
        </div>
        <div>
          <dt>Install Date</dt>
          <dd>{formatDay(batch.install_date)}</dd>
        </div>
        <div>
          <dt>Expiry Date</dt>
          <dd>{formatDay(batch.expire_date)}</dd>
        </div>
      </dl>
      {canManage ? (
        <div className={styles.actions}>
          {batch.is_recalled ? (
            <button
              type="button"
              className={styles.action}
              onClick={() => resume(batch)}
              aria-label={`RESUME BATCH ${batch.batch_no}`}
            >
              RESUME
            </button>
          ) : (
            <button
              type="button"
              className={[styles.action, styles.recall].join(' ')}
              onClick={() => recall(batch)}
              aria-label={`RECALL BATCH ${batch.batch_no}`}
            >
              RECALL
            </button>
          )}
          <button type="button" className={styles.action} onClick={() => edit(batch)} aria-label={`EDIT BATCH ${batch.batch_no}`}>
            EDIT
          </button>
        </div>
      ) : null}
    </StatusCard>
  );
}
