import { attach, createEffect, createEvent, createStore, sample, scopeBind } from 'effector';

/**
 * The screen's clock: now, ticking each second while a view has started it (the clock panel does, on the
 * map screen). Shared, so the clock panel and the device panel read the same second without one widget
 * importing the other.
 */
export const clockStarted = createEvent();
export const clockStopped = createEvent();
export const clockTicked = createEvent<number>();

type Timer = { stop: () => void };

export const $now = createStore<number>(Date.now(), { serialize: 'ignore' });
const $timer = createStore<Timer | null>(null, { serialize: 'ignore' });

export const startTimerFx = createEffect((): Timer => {
  const tick = scopeBind(clockTicked, { safe: true });
  tick(Date.now());
  let interval: number | undefined;
  // Aligned to the next whole second, so the seconds change with the system clock.
  const timeout = window.setTimeout(
    () => {
      tick(Date.now());
      interval = window.setInterval(() => tick(Date.now()), 1000);
    },
    1000 - (Date.now() % 1000),
  );
  return {
    stop: () => {
      window.clearTimeout(timeout);
      window.clearInterval(interval);
    },
  };
});
const stopTimerFx = attach({ source: $timer, effect: (timer) => timer?.stop() });

$now.on(clockTicked, (_, now) => now);
$timer.on(startTimerFx.doneData, (_, timer) => timer).reset(stopTimerFx.finally);

sample({ clock: clockStarted, source: $timer, filter: (timer) => timer === null, fn: () => undefined, target: startTimerFx });
sample({ clock: clockStopped, target: stopTimerFx });
