import type { ReactNode } from 'react';
import { LinkButton } from '../../../shared/ui';
import styles from './map-page.module.css';

/** A failure said over the map, top left, with Try again: the devices (ui/map-page) or the map's own code (ui/map-shell). */
export function FailureNote({ children, onRetry }: { children: ReactNode; onRetry: () => void }) {
  return (
    <p className={styles.note}>
      {children}
      <LinkButton onClick={onRetry}>Try again</LinkButton>
    </p>
  );
}
