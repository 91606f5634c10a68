import type { ReactNode } from 'react';
import styles from './segmented.module.css';

export type SegmentedOption<V extends string | number> = {
  value: V;
  label: ReactNode;
  /** Shown but not choosable: stays in the tab order (aria-disabled) with the reason as its tooltip. */
  disabledReason?: string | undefined;
};

export type SegmentedProps<V extends string | number> = {
  /** Accessible name of the group ('Pump', 'Period'). */
  label: string;
  options: readonly SegmentedOption<V>[];
  value: V;
  onChange: (value: V) => void;
  className?: string;
};

/**
 * A segmented control: joined toggle buttons in a labelled group, the chosen one pressed (aria-pressed).
 * Each is a plain button, so Tab reaches every option and Enter / Space choose it.
 */
export function Segmented<V extends string | number>({ label, options, value, onChange, className }: SegmentedProps<V>) {
  return (
    <div className={[styles.segmented, className ?? ''].filter(Boolean).join(' ')} role="group" aria-label={label}>
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          className={styles.option}
          aria-pressed={o.value === value}
          aria-disabled={o.disabledReason ? true : undefined}
          title={o.disabledReason}
          onClick={() => {
            if (!o.disabledReason) onChange(o.value);
          }}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}
