import type { HTMLAttributes } from 'react';
import styles from './card.module.css';

const join = (...classes: (string | undefined)[]) => classes.filter(Boolean).join(' ');

export type CardProps = HTMLAttributes<HTMLElement> & {
  /** The element: a section (default) for a titled block, an article for a list item, a div for a plain frame. */
  as?: 'section' | 'article' | 'div';
};

/** A bordered surface holding one block: a device panel section, a list item. Title it with CardHead / CardTitle. */
export function Card({ as: Tag = 'section', className, ...rest }: CardProps) {
  return <Tag {...rest} className={join(styles.card, className)} />;
}

/** The card's frame as a class, for an element that must be something else (a card that is a button). */
export const cardClass = styles.card;

/** The card's title row: the title first, its controls at the end (wrapping under it when narrow). */
export function CardHead({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div {...rest} className={join(styles.head, className)} />;
}

/** The card's title (an h3: cards sit under a page or panel heading). */
export function CardTitle({ className, ...rest }: HTMLAttributes<HTMLHeadingElement>) {
  return <h3 {...rest} className={join(styles.title, className)} />;
}

/** A small uppercase label over a group of content (an h4 unless told: it names a part of a card, a tab or a panel). */
export function SectionTitle({
  as: Tag = 'h4',
  className,
  ...rest
}: HTMLAttributes<HTMLHeadingElement> & { as?: 'h2' | 'h3' | 'h4' }) {
  return <Tag {...rest} className={join(styles.sectionTitle, className)} />;
}
