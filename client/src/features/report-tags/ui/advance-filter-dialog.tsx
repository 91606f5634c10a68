import { formatNumber } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { Button, CheckIcon, Dialog, Spinner, VirtualList } from '../../../shared/ui';
import {
  $filterApplying,
  $filterError,
  $filterOpen,
  $filterPickedCount,
  $filterRows,
  $filterSearch,
  $filterTotal,
  $isPicked,
  advanceFilterApplied,
  advanceFilterClosed,
  filterAllCleared,
  filterAllSelected,
  filterPages,
  filterRowToggled,
  filterSearchChanged,
} from '../model';
import styles from './tags.module.css';

const ROW_HEIGHT = 52;

/** The Advance Filter (spec section 2 popups): the caller's devices as rows that toggle, Select All / Clear All. */
export function AdvanceFilterDialog() {
  const [open, rows, isPicked, pickedCount, error, applying, search, total, status, hasMore, loadingMore, more] = useUnit([
    $filterOpen,
    $filterRows,
    $isPicked,
    $filterPickedCount,
    $filterError,
    $filterApplying,
    $filterSearch,
    $filterTotal,
    filterPages.$status,
    filterPages.$hasMore,
    filterPages.$loadingMore,
    filterPages.moreRequested,
  ]);
  const [close, apply, toggle, selectAll, clearAll, setSearch] = useUnit([
    advanceFilterClosed,
    advanceFilterApplied,
    filterRowToggled,
    filterAllSelected,
    filterAllCleared,
    filterSearchChanged,
  ]);
  return (
    <Dialog
      open={open}
      onClose={close}
      title="Advance Filter"
      width={640}
      actions={
        <>
          <Button variant="secondary" onClick={() => close()}>
            Cancel
          </Button>
          <Button onClick={() => apply()} loading={applying}>
            Apply
          </Button>
        </>
      }
    >
      <div className={styles.filterTools}>
        <input
          className={styles.search}
          type="search"
          placeholder="Name or Serial"
          aria-label="Name or Serial"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <Button variant="secondary" onClick={() => selectAll()}>
          Select All
        </Button>
        <Button variant="secondary" onClick={() => clearAll()}>
          Clear All
        </Button>
      </div>
      {/* The picked count is the server's when a Select All or Clear All of a search is among the picks (issue 46). */}
      <p
        className={styles.picked}
        role="status"
        aria-live="polite"
        data-testid="filter-picked"
        data-count={pickedCount ?? undefined}
      >
        {pickedCount === null ? '…' : formatNumber(pickedCount)} selected · {total === null ? '…' : formatNumber(total)} shown
      </p>
      {error ? (
        <p className={styles.empty} role="alert" data-testid="filter-error">
          {error}
        </p>
      ) : null}
      {rows.length === 0 ? (
        status === 'ready' ? (
          <p className={styles.empty}>No devices match.</p>
        ) : status === 'failed' ? (
          <p className={styles.empty}>The devices could not be loaded.</p>
        ) : (
          <p className={styles.empty}>
            <Spinner size={14} /> Loading devices…
          </p>
        )
      ) : (
        <VirtualList
          className={styles.rows}
          label="Devices"
          items={rows}
          total={total ?? undefined}
          onEndReached={hasMore ? more : undefined}
          loadingMore={loadingMore}
          rowHeight={ROW_HEIGHT}
          itemKey={(d) => d.serial}
          renderItem={(d) => (
            <button
              type="button"
              className={styles.row}
              aria-pressed={isPicked(d)}
              onClick={() => toggle(d.serial)}
              data-serial={d.serial}
            >
              <span className={styles.box} aria-hidden="true">
                <CheckIcon size={14} />
              </span>
              <span className={styles.rowName}>
                {d.label || 'NoName'}
                <span className={styles.rowMeta}>
                  {d.serial} · {d.address}
                </span>
              </span>
              <span className={styles.rowBrand}>{d.brand_name ?? 'No brand'}</span>
            </button>
          )}
        />
      )}
    </Dialog>
  );
}
