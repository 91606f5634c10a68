import type { HTMLAttributes } from 'react';
import styles from './panel.module.css';

/** A floating card over the full-screen map (clock, Active Pin, profile). */
export function Panel({ className, ...rest }: HTMLAttributes<HTMLElement>) {
  return <section {...rest} className={[styles.panel, className ?? ''].filter(Boolean).join(' ')} />;
}

export function PanelTitle({ className, ...rest }: HTMLAttributes<HTMLHeadingElement>) {
  return <h2 {...rest} className={[styles.title, className ?? ''].filter(Boolean).join(' ')} />;
}
