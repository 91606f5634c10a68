import styles from './form-message.module.css';

export type FormMessageProps = {
  tone: 'error' | 'success';
  /** Nothing is drawn without a message; the live region stays so screen readers announce changes. */
  children?: string | null;
  id?: string;
};

/** The one-line outcome of a form (wrong credentials, mail sent), announced politely. */
export function FormMessage({ tone, children, id }: FormMessageProps) {
  return (
    <div id={id} className={styles.region} role="status" aria-live="polite">
      {children ? (
        <p className={[styles.message, styles[tone]].join(' ')} data-tone={tone}>
          {children}
        </p>
      ) : null}
    </div>
  );
}
