import type { ButtonHTMLAttributes } from 'react';
import { Spinner } from '../spinner/spinner';
import styles from './button.module.css';

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'success' | 'danger';
  /** Full width of its container. */
  block?: boolean;
  /** Shows a spinner and ignores clicks while a request runs. */
  loading?: boolean;
};

export function Button({
  variant = 'primary',
  block = false,
  loading = false,
  className,
  children,
  disabled,
  type = 'button',
  ...rest
}: ButtonProps) {
  const classes = [styles.button, styles[variant], block ? styles.block : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button {...rest} type={type} className={classes} disabled={disabled || loading} aria-busy={loading || undefined}>
      {loading ? <Spinner size={16} /> : null}
      {children}
    </button>
  );
}

export type LinkButtonProps = ButtonHTMLAttributes<HTMLButtonElement>;

/** An in-page action styled as a text link. */
export function LinkButton({ className, type = 'button', ...rest }: LinkButtonProps) {
  return <button {...rest} type={type} className={[styles.link, className ?? ''].filter(Boolean).join(' ')} />;
}
