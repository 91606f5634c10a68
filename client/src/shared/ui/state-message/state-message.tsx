import type { ReactNode } from 'react';
import { LinkButton } from '../button/button';
import { Spinner } from '../spinner/spinner';
import styles from './state-message.module.css';

export type StateMessageProps = {
  /** loading: a spinner, announced (role status); failed: in the danger tone, announced (role alert), with Try again; empty: a quiet sentence. */
  status: 'loading' | 'failed' | 'empty';
  children: ReactNode;
  /** With status failed: the Try again link calls it. */
  onRetry?: () => void;
};

/** What a list or tab shows instead of its content while it loads, when it has none, or when loading failed. */
export function StateMessage({ status, children, onRetry }: StateMessageProps) {
  if (status === 'failed')
    return (
      <p className={styles.failed} role="alert">
        {children}
        {onRetry ? <LinkButton onClick={onRetry}>Try again</LinkButton> : null}
      </p>
    );
  return (
    <p className={styles.quiet} role={status === 'loading' ? 'status' : undefined}>
      {status === 'loading' ? <Spinner size={16} /> : null}
      {children}
    </p>
  );
}
