import { useUnit } from 'effector-react';
import { useEffect, useId } from 'react';
import { Panel, PanelTitle } from '../../../shared/ui';
import { clockFace } from '../lib';
import { $now, clockStarted, clockStopped } from '../../../shared/lib';
import styles from './clock-panel.module.css';

/** Local time, GMT offset, weekday, day, month and year, updated every second. */
export function ClockPanel({ className }: { className?: string }) {
  const [now, start, stop] = useUnit([$now, clockStarted, clockStopped]);
  const titleId = useId();
  useEffect(() => {
    start();
    return () => stop();
  }, [start, stop]);
  const face = clockFace(now);

  return (
    <Panel className={[styles.panel, className ?? ''].join(' ')} aria-labelledby={titleId} data-testid="clock-panel">
      <PanelTitle id={titleId} className="visually-hidden">
        Local time
      </PanelTitle>
      {/* Announcing every second would drown a screen reader: the time is read on demand. */}
      <time className={styles.time} dateTime={face.iso} data-testid="clock-time">
        {face.time}
        <span className={styles.seconds}>:{face.seconds}</span>
        <span className={styles.meridiem}>{face.meridiem}</span>
      </time>
      <div className={styles.meta}>
        <span className={styles.gmt} data-testid="clock-gmt">
          {face.gmt}
        </span>
        <span data-testid="clock-date">
          {face.weekday}, {face.day} {face.month} {face.year}
        </span>
      </div>
    </Panel>
  );
}
