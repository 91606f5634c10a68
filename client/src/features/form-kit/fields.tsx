import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { TextField, type TextFieldProps } from '../../shared/ui';
import styles from './form-kit.module.css';

/** The props that make a control announce its message and invalid state. */
export const invalidProps = (errorId: string, error: string | undefined) =>
  error ? ({ 'aria-invalid': true, 'aria-describedby': errorId } as const) : ({ 'aria-invalid': false } as const);

/** The message under a field, tied to its control by id. */
export function FieldError({ id, children }: { id: string; children?: string | undefined }) {
  return children ? (
    <p id={id} className={styles.error} data-field-error>
      {children}
    </p>
  ) : null;
}

/** The kit's TextField with its message under it. */
export function FormTextField({ error, className, ...props }: TextFieldProps & { error?: string | undefined }) {
  const errorId = useId();
  return (
    <div className={[styles.field, className ?? ''].filter(Boolean).join(' ')}>
      <TextField {...props} {...invalidProps(errorId, error)} />
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}

export type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & { label: string; error?: string | undefined; children: ReactNode };

/** A labelled native select drawn like the kit's text fields, with its message under it. */
export function SelectField({ label, error, className, children, ...select }: SelectFieldProps) {
  const id = useId();
  const errorId = useId();
  return (
    <div className={[styles.field, className ?? ''].filter(Boolean).join(' ')}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <select id={id} className={styles.select} {...select} {...invalidProps(errorId, error)}>
        {children}
      </select>
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}
