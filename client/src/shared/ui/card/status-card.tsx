import type { HTMLAttributes } from 'react';
import styles from './status-card.module.css';

const join = (...classes: (string | undefined)[]) => classes.filter(Boolean).join(' ');

/**
 * A list item's card in its state's colour: the left edge and the StatusPill take --tone, --tone-soft and
 * --tone-text, which the caller's stylesheet sets per state (see status-card.module.css). An article: each
 * card is one self-contained item of a list, named by its title (aria-labelledby).
 */
export function StatusCard({ className, ...rest }: HTMLAttributes<HTMLElement>) {
  return <article {...rest} className={join(styles.card, className)} />;
}

/** The card's first line: its title, then its StatusPill at the end. */
export function StatusCardHead({ className, ...rest }: HTMLAttributes<HTMLElement>) {
  return <header {...rest} className={join(styles.head, className)} />;
}

/** The state's label in the state's colours. */
export function StatusPill({ className, ...rest }: HTMLAttributes<HTMLSpanElement>) {
  return <span {...rest} className={join(styles.pill, className)} />;
}
