import type { ReactNode, TableHTMLAttributes } from 'react';
import styles from './data-table.module.css';

export type DataColumn<R> = {
  key: string;
  /** The column header; a column of row actions names itself for screen readers only (a visually-hidden span). */
  header: ReactNode;
  cell: (row: R) => ReactNode;
  /** 'end' right-aligns the column and keeps it on one line (numbers, prices, row actions). */
  align?: 'start' | 'end';
  /** The cells of this column name their row (th scope="row"), read out before the other cells. */
  rowHeader?: boolean;
};

export type DataTableProps<R> = Omit<TableHTMLAttributes<HTMLTableElement>, 'children'> & {
  columns: readonly DataColumn<R>[];
  rows: readonly R[];
  rowKey: (row: R) => string | number;
  /** Attributes of a row (data-* for tests and styling). */
  rowProps?: (row: R) => Record<`data-${string}`, string | number | undefined>;
  /** What shows instead of the table when there are no rows: a sentence, or a node (loading, failed with Try again). */
  empty: ReactNode;
  /** The frame scrolls past this height (px), the header staying in view, and takes focus so the keyboard scrolls it (named by aria-label); without it the table grows. */
  maxHeight?: number;
};

/**
 * A data table in the house style: a header row of small uppercase labels that stays in view while the
 * rows scroll, hairline-separated rows, and one empty state in place of a table with no rows.
 */
export function DataTable<R>({ columns, rows, rowKey, rowProps, empty, maxHeight, className, ...rest }: DataTableProps<R>) {
  if (rows.length === 0) return typeof empty === 'string' ? <p className={styles.empty}>{empty}</p> : <>{empty}</>;
  const align = (c: DataColumn<R>) => (c.align === 'end' ? styles.end : undefined);
  return (
    // A frame that scrolls is a focusable region, so the keyboard can scroll it too (its rows may hold no control).
    <div
      className={styles.frame}
      {...(maxHeight ? { style: { maxHeight }, tabIndex: 0, role: 'region', 'aria-label': rest['aria-label'] ?? 'Table' } : {})}
    >
      <table {...rest} className={[styles.table, className ?? ''].filter(Boolean).join(' ')}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={align(c)}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowProps?.(row)}>
              {columns.map((c) =>
                c.rowHeader ? (
                  <th key={c.key} scope="row" className={align(c)}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={c.key} className={align(c)}>
                    {c.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The empty state's look, for a state a caller draws itself (loading with a spinner, failed with Try again). */
export const dataTableStateClass = styles.empty;
