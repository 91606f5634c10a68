import { useRef, type KeyboardEvent } from 'react';
import styles from './tabs.module.css';

export type TabItem<K extends string> = {
  key: K;
  label: string;
  /** A disabled tab stays visible and focusable (arrow keys) but cannot be selected; the reason shows as its tooltip. */
  disabledReason?: string;
};

export type TabsProps<K extends string> = {
  items: readonly TabItem<K>[];
  selected: K;
  onSelect: (key: K) => void;
  /** Accessible name of the tab list. */
  label: string;
  /** Prefix for the ids that tie each tab to its panel (see tabPanelProps). */
  idPrefix: string;
  /** Smaller labels on one line, for several tabs in a narrow panel. */
  compact?: boolean;
};

export const tabId = (idPrefix: string, key: string) => `${idPrefix}-tab-${key}`;
export const panelId = (idPrefix: string, key: string) => `${idPrefix}-panel-${key}`;

/** The attributes of the panel shown for `key`. */
export const tabPanelProps = (idPrefix: string, key: string) => ({
  role: 'tabpanel' as const,
  id: panelId(idPrefix, key),
  'aria-labelledby': tabId(idPrefix, key),
});

/**
 * A WAI-ARIA tab list with a highlight sliding under the selected tab: Tab enters on the selected tab,
 * Left / Right / Home / End move between tabs, Enter / Space select.
 */
export function Tabs<K extends string>({ items, selected, onSelect, label, idPrefix, compact = false }: TabsProps<K>) {
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const index = Math.max(
    0,
    items.findIndex((item) => item.key === selected),
  );

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, at: number) => {
    const last = items.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? at === last
          ? 0
          : at + 1
        : event.key === 'ArrowLeft'
          ? at === 0
            ? last
            : at - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    refs.current[next]?.focus();
  };

  return (
    <div className={[styles.tablist, compact ? styles.compact : ''].join(' ')} role="tablist" aria-label={label}>
      {items.map((item, at) => {
        const isSelected = item.key === selected;
        const disabled = item.disabledReason !== undefined;
        return (
          <button
            key={item.key}
            ref={(el) => {
              refs.current[at] = el;
            }}
            type="button"
            role="tab"
            id={tabId(idPrefix, item.key)}
            className={styles.tab}
            aria-selected={isSelected}
            aria-controls={isSelected ? panelId(idPrefix, item.key) : undefined}
            aria-disabled={disabled || undefined}
            title={item.disabledReason}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => {
              if (!disabled) onSelect(item.key);
            }}
            onKeyDown={(event) => onKeyDown(event, at)}
          >
            {item.label}
          </button>
        );
      })}
      <span
        className={styles.highlight}
        style={{ width: `${100 / items.length}%`, transform: `translateX(${index * 100}%)` }}
        aria-hidden="true"
      />
    </div>
  );
}
