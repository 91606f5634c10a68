import { useEffect, useId, useRef, useState } from 'react';
import { ChevronIcon } from '../../../shared/ui';
import type { PartnerCompany } from '../lib/dashboard-lib';
import styles from './dashboard-panel.module.css';

type Props = { companies: readonly PartnerCompany[]; selected: readonly string[]; onChange: (keys: string[]) => void };

/**
 * The multi-select Market Partner dropdown of the filter list: a button that opens a list of check
 * boxes ('No Partners' and disabled when the list has none). Escape or a click outside closes it.
 */
export function PartnerSelect({ companies, selected, onChange }: Props) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const id = useId();
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onDown);
    return () => document.removeEventListener('pointerdown', onDown);
  }, [open]);

  const none = companies.length === 0;
  const label = none
    ? 'No Partners'
    : selected.length === 0
      ? 'All'
      : selected.length === 1
        ? (companies.find((c) => c.key === selected[0])?.company ?? '1 selected')
        : `${selected.length} selected`;
  const toggle = (key: string) => onChange(selected.includes(key) ? selected.filter((k) => k !== key) : [...selected, key]);
  return (
    <div
      className={styles.field}
      ref={root}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
        }
      }}
    >
      <span className={styles.fieldLabel} id={`${id}-label`}>
        Market Partner
      </span>
      <button
        type="button"
        className={styles.select}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={`${id}-list`}
        aria-labelledby={`${id}-label ${id}-value`}
        disabled={none}
        onClick={() => setOpen((o) => !o)}
      >
        <span id={`${id}-value`} className={styles.selectValue}>
          {label}
        </span>
        <ChevronIcon size={16} />
      </button>
      {open ? (
        <fieldset id={`${id}-list`} className={styles.popover}>
          <legend className="visually-hidden">Market partners to show</legend>
          {companies.map((c) => (
            <label key={c.key} className={styles.check}>
              <input type="checkbox" checked={selected.includes(c.key)} onChange={() => toggle(c.key)} />
              <span>{c.company}</span>
            </label>
          ))}
          {selected.length ? (
            <button type="button" className={styles.textButton} onClick={() => onChange([])}>
              Show all partners
            </button>
          ) : null}
        </fieldset>
      ) : null}
    </div>
  );
}
