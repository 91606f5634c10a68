import { Button, MapBackdrop, Spinner } from '../shared/ui';
import styles from './session-screens.module.css';

/** While the stored token is being checked (or a page chunk loads). */
export function SessionLoading({ label = 'Loading…' }: { label?: string }) {
  return (
    <MapBackdrop>
      <p className={styles.loading} role="status">
        <Spinner size={18} />
        {label}
      </p>
    </MapBackdrop>
  );
}

/**
 * Something the screen needs did not arrive, with Try again: the token check unanswered ('The portal cannot be
 * reached'; the token is kept for the retry), or a page's code that could not be downloaded ('This page could
 * not be loaded': offline, or a deploy in between, after which only a new page load finds the new chunks).
 */
export function Unavailable({ title, onRetry }: { title: string; onRetry: () => void }) {
  return (
    <MapBackdrop>
      <main className={styles.card} role="alert">
        <h1 className={styles.title}>{title}</h1>
        <p className={styles.text}>Check your connection, then try again.</p>
        <Button onClick={onRetry}>Try again</Button>
      </main>
    </MapBackdrop>
  );
}
