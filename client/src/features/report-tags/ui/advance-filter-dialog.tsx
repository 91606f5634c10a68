import { formatNumber } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { Button, CheckIcon, Dialog, VirtualList } from '../../../shared/ui';
import {
  $filterOpen,
  $filterPicked,
  $filterRows,
  $filterSearch,
  advanceFilterApplied,
  advanceFilterClosed,
  filterAllCleared,
  filterAllSelected,
  filterRowToggled,
  filterSearchChanged,
} from '../model';
import styles from './tags.module.css';

const ROW_HEIGHT = 52;

/** The Advance Filter (spec section 2 popups): the caller's devices as rows that toggle, Select All / Clear All. */
export function AdvanceFilterDialog() {
  const [open, rows, picked, search] = useUnit([$filterOpen, $filterRows, $filterPicked, $filterSearch]);
  const [close, apply, toggle, selectAll, clearAll, setSearch] = useUnit([
    advanceFilterClosed,
    advanceFilterApplied,
    filterRowToggled,
    filterAllSelected,
    filterAllCleared,
    filterSearchChanged,
  ]);
  const chosen = new Set(picked);
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
          <Button onClick={() => apply()}>Apply</Button>
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
      <p className={styles.picked} role="status" aria-live="polite" data-testid="filter-picked" data-count={picked.length}>
        {formatNumber(picked.length)} selected · {formatNumber(rows.length)} shown
      </p>
      {rows.length === 0 ? (
        <p className={styles.empty}>No devices match.</p>
      ) : (
        <VirtualList
          className={styles.rows}
          label="Devices"
          items={rows}
          rowHeight={ROW_HEIGHT}
          itemKey={(d) => d.serial}
          renderItem={(d) => (
            <button
              type="button"
              className={styles.row}
              aria-pressed={chosen.has(d.serial)}
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
