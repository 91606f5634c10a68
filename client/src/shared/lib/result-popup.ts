import { createEffect, createEvent, createStore, sample, type Unit } from 'effector';

/** A result popup's content: a title in the spec's words, an optional line of detail. */
export type PopupResult = { tone: 'success' | 'danger'; title: string; message: string | null };
/** A popup on show, numbered so a timer started for an earlier popup never closes a later one. */
export type ShownResult<R extends PopupResult = PopupResult> = R & { seq: number };

/** An effect that resolves with the number it was given once `ms` have passed. */
export const createSeqTimerFx = (ms: number) =>
  createEffect((seq: number) => new Promise<number>((resolve) => window.setTimeout(() => resolve(seq), ms)));

/**
 * The model of a result popup that closes itself after `ms` (spec: brand popups 1 s, batch popups 2 s,
 * device and email popups 1.5 s), or with OK (`closed`). `ms` null keeps it until it is dismissed (a result
 * with a list to read). `resetOn` closes it too (the session ending).
 */
export function createResultPopup<R extends PopupResult = PopupResult>(options: {
  ms: number | null;
  resetOn?: Unit<unknown>[];
}) {
  const shown = createEvent<R>();
  const closed = createEvent();
  /** Resolves with the popup's number once it has been shown long enough. */
  const timerFx = createSeqTimerFx(options.ms ?? 0);
  // Counted for the whole tab, so numbers never repeat after a popup closes.
  const $count = createStore(0, { serialize: 'ignore' }).on(shown, (n) => n + 1);
  const $result = createStore<ShownResult<R> | null>(null, { serialize: 'ignore' });
  sample({ clock: shown, source: $count, fn: (seq, result): ShownResult<R> => ({ ...result, seq }), target: $result });
  $result
    .on(timerFx.doneData, (current, seq) => (current?.seq === seq ? null : current))
    .reset(closed, ...(options.resetOn ?? []));
  if (options.ms !== null) sample({ clock: $result, filter: (r) => r !== null, fn: (r) => r!.seq, target: timerFx });
  return { shown, closed, timerFx, $result };
}
