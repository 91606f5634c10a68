import type { ReactNode } from 'react';
import { ArrowLeftIcon } from '../icons/icons';
import { MapBackdrop } from '../map-backdrop/map-backdrop';
import styles from './info-page.module.css';

export type InfoPageProps = {
  title: string;
  /** One line under the title. */
  lead: ReactNode;
  children?: ReactNode;
  /** Where "Back" goes: the map by default. */
  backHref?: string;
  backLabel?: string;
};

/** A simple page over the map-like backdrop: a title, what the page is for, a back link. */
export function InfoPage({ title, lead, children, backHref = '/', backLabel = 'Back to the map' }: InfoPageProps) {
  return (
    <MapBackdrop>
      <main className={styles.card}>
        <h1 className={styles.title}>{title}</h1>
        <p className={styles.lead}>{lead}</p>
        {children ? <div className={styles.body}>{children}</div> : null}
        <a className={styles.back} href={backHref}>
          <ArrowLeftIcon size={18} />
          {backLabel}
        </a>
      </main>
    </MapBackdrop>
  );
}
