import { useEffect, useRef, useState, type ReactNode } from 'react';
import styles from './virtual-list.module.css';

export type VirtualListProps<T> = {
  items: readonly T[];
  /** Every row is this tall (px, gap included): the list never measures, so 10,000 rows scroll smoothly. */
  rowHeight: number;
  itemKey: (item: T) => string;
  renderItem: (item: T, index: number) => ReactNode;
  /** Accessible name of the list. */
  label: string;
  className?: string;
  /** Rows drawn beyond each edge, so a fast scroll shows no blank. */
  overscan?: number;
};

/**
 * A list that draws only the rows in view (plus a few), positioned in one tall spacer. Screen readers
 * still get the list's size and each row's position (aria-setsize / aria-posinset).
 */
export function VirtualList<T>({ items, rowHeight, itemKey, renderItem, label, className, overscan = 6 }: VirtualListProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: 600 });

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    let frame = 0;
    const read = () => {
      frame = 0;
      setView((v) =>
        v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight },
      );
    };
    // One read per frame however many scroll events arrive.
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(read);
    };
    read();
    el.addEventListener('scroll', onScroll, { passive: true });
    const observer = new ResizeObserver(onScroll);
    observer.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      observer.disconnect();
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);

  // A list shorter than where the view was (another filter) starts at its top. Compared with the last
  // scroll position read, not scrollTop, so typing in a search box forces no layout.
  useEffect(() => {
    if (ref.current && view.top > items.length * rowHeight) ref.current.scrollTop = 0;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [items, rowHeight]);

  const first = Math.max(0, Math.floor(view.top / rowHeight) - overscan);
  const last = Math.min(items.length, Math.ceil((view.top + view.height) / rowHeight) + overscan);
  const rows: ReactNode[] = [];
  for (let i = first; i < last; i += 1) {
    const item = items[i]!;
    rows.push(
      <div
        key={itemKey(item)}
        role="listitem"
        aria-setsize={items.length}
        aria-posinset={i + 1}
        className={styles.row}
        style={{ top: i * rowHeight, height: rowHeight }}
      >
        {renderItem(item, i)}
      </div>,
    );
  }
  return (
    <div ref={ref} className={[styles.viewport, className ?? ''].filter(Boolean).join(' ')} tabIndex={-1}>
      <div role="list" aria-label={label} className={styles.spacer} style={{ height: items.length * rowHeight }}>
        {rows}
      </div>
    </div>
  );
}
