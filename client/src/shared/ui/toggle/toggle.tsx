import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { CheckIcon } from '../icons/icons';
import styles from './toggle.module.css';

export type TickToggleProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'aria-pressed' | 'children'> & {
  pressed: boolean;
  /** Accessible name: what the tick turns on. */
  label: string;
};

/** A square tick box that is a button (aria-pressed): the notification ticks of sign up. */
export function TickToggle({ pressed, label, className, type = 'button', ...rest }: TickToggleProps) {
  return (
    <button
      {...rest}
      type={type}
      className={[styles.tick, className ?? ''].filter(Boolean).join(' ')}
      aria-pressed={pressed}
      aria-label={label}
      title={label}
    >
      <CheckIcon size={18} />
    </button>
  );
}

export type SwitchButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'aria-pressed'> & {
  pressed: boolean;
  /** Leading mark (a coloured dot or icon) before the label. */
  mark?: ReactNode;
  /** Dim the label while off (a filter that hides things); a setting's label stays readable. */
  dimWhenOff?: boolean;
  children: ReactNode;
};

/** A labelled on/off row that is a button (aria-pressed) with a small switch drawn at its end. */
export function SwitchButton({
  pressed,
  mark,
  children,
  className,
  dimWhenOff = true,
  type = 'button',
  ...rest
}: SwitchButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={[styles.switchRow, dimWhenOff ? styles.dimOff : '', className ?? ''].filter(Boolean).join(' ')}
      aria-pressed={pressed}
    >
      {mark ? <span className={styles.mark}>{mark}</span> : null}
      <span className={styles.switchLabel}>{children}</span>
      <span className={styles.switch} aria-hidden="true">
        <span className={styles.knob} />
      </span>
    </button>
  );
}
