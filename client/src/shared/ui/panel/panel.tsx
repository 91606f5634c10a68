import type { HTMLAttributes } from 'react';
import { SectionTitle } from '../card/card';
import styles from './panel.module.css';

/** A floating card over the full-screen map (clock, Active Pin, profile). */
export function Panel({ className, ...rest }: HTMLAttributes<HTMLElement>) {
  return <section {...rest} className={[styles.panel, className ?? ''].filter(Boolean).join(' ')} />;
}

/** The panel's small uppercase title: the kit's SectionTitle as the panel's heading (h2). */
export function PanelTitle(props: HTMLAttributes<HTMLHeadingElement>) {
  return <SectionTitle {...props} as="h2" />;
}
