import styles from './spinner.module.css';

/** A decorative busy indicator; the surrounding element carries the accessible state. */
export function Spinner({ size = 20 }: { size?: number }) {
  return <span className={styles.spinner} style={{ width: size, height: size }} aria-hidden="true" />;
}
