import { createEvent, createStore, sample, type Unit } from 'effector';
import { createSeqTimerFx } from './result-popup';

/**
 * A debounce inside the model: `fired` carries the latest payload of `clock` once it has been quiet for
 * `ms`. Every call is numbered and starts its own timer (`timerFx`, replaceable in a forked scope); a
 * timer that ends for an earlier number is dropped, so no timer needs clearing and no two scopes share
 * one. A change of any `cancelOn` unit drops what is waiting (the form it came from is gone).
 */
export function createDebounce<T>(clock: Unit<T>, ms: number, options: { cancelOn?: Unit<unknown>[] } = {}) {
  const timerFx = createSeqTimerFx(ms);
  const fired = createEvent<T>();
  const $count = createStore(0, { serialize: 'ignore' });
  const $waiting = createStore<{ seq: number; payload: T } | null>(null, { serialize: 'ignore' });
  const started = sample({ clock, source: $count, fn: (count, payload) => ({ seq: count + 1, payload }) });
  $count.on(started, (_, { seq }) => seq);
  $waiting.on(started, (_, waiting) => waiting).reset(fired, ...(options.cancelOn ?? []));
  sample({ clock: started, fn: ({ seq }) => seq, target: timerFx });
  sample({
    clock: timerFx.doneData,
    source: $waiting,
    filter: (waiting, seq) => waiting !== null && waiting.seq === seq,
    fn: (waiting) => (waiting as { payload: T }).payload,
    target: fired,
  });
  return { fired, timerFx };
}
