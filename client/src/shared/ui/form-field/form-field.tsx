import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import { TextField, type TextFieldProps } from '../text-field/text-field';
import styles from './form-field.module.css';

/** The props that make a control announce its message (aria-describedby) and its invalid state. */
export const invalidProps = (errorId: string, error: string | undefined) =>
  error ? ({ 'aria-invalid': true, 'aria-describedby': errorId } as const) : ({ 'aria-invalid': false } as const);

/** The message under a field, tied to its control by id; nothing while there is none. */
export function FieldError({ id, children }: { id: string; children?: string | undefined }) {
  return children ? (
    <p id={id} className={styles.error} data-field-error>
      {children}
    </p>
  ) : null;
}

export type FormFieldProps = {
  label: string;
  /** The id of the control the label names. */
  htmlFor: string;
  /** The id FieldError gives the message, for the control's aria-describedby (see invalidProps). */
  errorId: string;
  error?: string | undefined;
  className?: string | undefined;
  /** The control, and anything shown between it and the message (a hint). */
  children: ReactNode;
};

/** A label over any control with the control's message under it; a control marked aria-invalid gets a red border. */
export function FormField({ label, htmlFor, errorId, error, className, children }: FormFieldProps) {
  return (
    <div className={[styles.field, className ?? ''].filter(Boolean).join(' ')}>
      <label className={styles.label} htmlFor={htmlFor}>
        {label}
      </label>
      {children}
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}

/** The class that draws a plain <input> like the kit's text field (for controls TextField cannot be: a combobox). */
export const formControlClass = styles.control;

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

export type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  label: string;
  error?: string | undefined;
  children: ReactNode;
};

/** A labelled native select drawn like the kit's text fields, with its message under it. */
export function SelectField({ label, error, className, children, ...select }: SelectFieldProps) {
  const id = useId();
  const errorId = useId();
  return (
    <FormField label={label} htmlFor={id} errorId={errorId} error={error} className={className}>
      <select id={id} className={[styles.control, styles.select].join(' ')} {...select} {...invalidProps(errorId, error)}>
        {children}
      </select>
    </FormField>
  );
}
