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

/** The server did not answer the token check; the token is kept for the retry. */
export function SessionUnavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <MapBackdrop>
      <main className={styles.card} role="alert">
        <h1 className={styles.title}>The portal cannot be reached</h1>
        <p className={styles.text}>Check your connection, then try again.</p>
        <Button onClick={onRetry}>Try again</Button>
      </main>
    </MapBackdrop>
  );
}

/**
 * A page's code (loaded when the page opens) could not be downloaded: offline, or a deploy in between, after
 * which only a new page load finds the new chunks. Try again loads the page anew; the session is in its cookie.
 */
export function PageUnavailable({ onRetry }: { onRetry: () => void }) {
  return (
    <MapBackdrop>
      <main className={styles.card} role="alert">
        <h1 className={styles.title}>This page could not be loaded</h1>
        <p className={styles.text}>Check your connection, then try again.</p>
        <Button onClick={onRetry}>Try again</Button>
      </main>
    </MapBackdrop>
  );
}
