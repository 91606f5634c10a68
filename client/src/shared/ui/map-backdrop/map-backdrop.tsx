import type { ReactNode } from 'react';
import styles from './map-backdrop.module.css';

/** Full-window calm background that centres its content (the login modal, the signed-in card). */
export function MapBackdrop({ children }: { children: ReactNode }) {
  return <div className={styles.backdrop}>{children}</div>;
}
