import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, type ReactNode } from 'react';
import { Spinner } from '../spinner/spinner';
import styles from './virtual-list.module.css';

export type VirtualListProps<T> = {
  items: readonly T[];
  /** A row's height (px, gap included); with `measured`, only the first guess before a row is drawn. */
  rowHeight: number;
  /** Rows whose height varies (cards with an extra line): each drawn row is measured. */
  measured?: boolean;
  itemKey: (item: T) => string | number;
  renderItem: (item: T, index: number) => ReactNode;
  /** Accessible name of the list. */
  label: string;
  className?: string;
  /** Rows drawn beyond each edge, so a fast scroll shows no blank. */
  overscan?: number;
  /** How many rows the whole list has when only some are loaded (a server's total): what screen readers hear. */
  total?: number;
  /** Called when the rows drawn reach the last few loaded: the view asks for the next page. */
  onEndReached?: () => void;
  /** The next page is on its way: a 'Loading more…' line under the last row. */
  loadingMore?: boolean;
};

/** Rows before the end at which the next page is asked for: one page of 100 is read well before it shows. */
const END_MARGIN = 20;

/**
 * A list that draws only the rows in view (plus a few), on @tanstack/react-virtual (issue 46: 1,251 site
 * cards or 100,000 devices). Screen readers still get the list's size and each row's position
 * (aria-setsize / aria-posinset), and the rows keep their own buttons, reached with Tab as before.
 */
export function VirtualList<T>({
  items,
  rowHeight,
  measured = false,
  itemKey,
  renderItem,
  label,
  className,
  overscan = 6,
  total,
  onEndReached,
  loadingMore = false,
}: VirtualListProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => ref.current,
    estimateSize: () => rowHeight,
    overscan,
    getItemKey: (index) => itemKey(items[index]!),
    // jsdom and the first paint: a viewport of 600 px until the browser has measured it.
    initialRect: { width: 0, height: 600 },
  });
  const rows = virtualizer.getVirtualItems();
  const lastDrawn = rows.at(-1)?.index ?? -1;

  // A list shorter than where the view was (another filter) starts at its top.
  const count = items.length;
  const first = count > 0 ? itemKey(items[0]!) : null;
  useEffect(() => {
    if (ref.current && ref.current.scrollTop > 0) virtualizer.scrollToOffset(0);
    // Only when the list is another list (its first row changed), not when a page is appended.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [first]);

  useEffect(() => {
    if (onEndReached && count > 0 && lastDrawn >= count - END_MARGIN) onEndReached();
  }, [onEndReached, lastDrawn, count]);

  const setSize = total ?? count;
  return (
    <div ref={ref} className={[styles.viewport, className ?? ''].filter(Boolean).join(' ')} tabIndex={-1}>
      <div role="list" aria-label={label} className={styles.spacer} style={{ height: virtualizer.getTotalSize() }}>
        {rows.map((row) => (
          <div
            key={row.key as string | number}
            data-index={row.index}
            ref={measured ? virtualizer.measureElement : undefined}
            role="listitem"
            aria-setsize={setSize}
            aria-posinset={row.index + 1}
            className={styles.row}
            style={
              measured
                ? { transform: `translateY(${row.start}px)` }
                : { transform: `translateY(${row.start}px)`, height: row.size }
            }
          >
            {renderItem(items[row.index]!, row.index)}
          </div>
        ))}
      </div>
      {loadingMore ? (
        <div className={styles.footer} role="status">
          <Spinner size={14} /> Loading more…
        </div>
      ) : null}
    </div>
  );
}
