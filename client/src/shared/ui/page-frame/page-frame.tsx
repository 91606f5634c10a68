import type { ReactNode } from 'react';
import styles from './page-frame.module.css';

export type PageFrameProps = {
  title: string;
  /** A line under the title. */
  lead?: ReactNode;
  /** Buttons and links at the top right (they wrap under the title on a narrow screen). */
  actions?: ReactNode;
  children: ReactNode;
};

/**
 * A full page outside the map (opened in its own tab: /maintenance, /maintenance-result,
 * /exclusive-management): its heading, a lead line, actions, and the page's content on the surface.
 */
export function PageFrame({ title, lead, actions, children }: PageFrameProps) {
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <div>
          <h1 className={styles.title}>{title}</h1>
          {lead ? <p className={styles.meta}>{lead}</p> : null}
        </div>
        {actions ? <div className={styles.tools}>{actions}</div> : null}
      </header>
      {children}
    </div>
  );
}

/** The text styles such pages share: meta lines, error and success notes, an empty state, a data table. */
export const pageText = {
  sectionTitle: styles.sectionTitle,
  meta: styles.meta,
  tools: styles.tools,
  back: styles.back,
  error: styles.error,
  success: styles.success,
  empty: styles.empty,
  table: styles.table,
} as const;
