import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { EyeIcon, EyeOffIcon } from '../icons/icons';
import styles from './text-field.module.css';

export type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: string;
  /** A control drawn inside the right edge of the input (the password toggle). */
  trailing?: ReactNode;
  id?: string;
};

/** A labelled single-line input. */
export function TextField({ label, trailing, id, className, ...input }: TextFieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  return (
    <div className={[styles.field, trailing ? styles.withTrailing : '', className ?? ''].filter(Boolean).join(' ')}>
      <label className={styles.label} htmlFor={inputId}>
        {label}
      </label>
      <div className={styles.control}>
        <input id={inputId} className={styles.input} {...input} />
        {trailing ? <div className={styles.trailing}>{trailing}</div> : null}
      </div>
    </div>
  );
}

export type PasswordFieldProps = Omit<TextFieldProps, 'type' | 'trailing'>;

/** A password input with a show / hide toggle button. */
export function PasswordField({ id, ...props }: PasswordFieldProps) {
  const [visible, setVisible] = useState(false);
  const generated = useId();
  const inputId = id ?? generated;
  return (
    <TextField
      {...props}
      id={inputId}
      type={visible ? 'text' : 'password'}
      trailing={
        <button
          type="button"
          className={styles.iconButton}
          aria-label="Show password"
          aria-pressed={visible}
          aria-controls={inputId}
          title={visible ? 'Hide password' : 'Show password'}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      }
    />
  );
}
