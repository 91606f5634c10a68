import { createEffect, createEvent, createStore, sample, type Unit } from 'effector';

/**
 * Parts the brand and batch dialogs share. A result popup that closes itself (spec sections 4 and 9: brand popups 1 s, batch popups 2 s): each
 * popup gets a number, so a timer started for an earlier popup never closes a later one. `ms` null keeps
 * the popup until it is dismissed (for a result with a list to read).
 */
export type FormResult = { tone: 'success' | 'danger'; title: string; message: string | null; seq: number };

export function createResultPopup<R extends Omit<FormResult, 'seq'> = Omit<FormResult, 'seq'>>(options: { ms: number | null; resetOn?: Unit<unknown>[] }) {
  const shown = createEvent<R>();
  const closed = createEvent();
  /** Resolves with the popup's number once it has been shown long enough. */
  const timerFx = createEffect((seq: number) => new Promise<number>((resolve) => window.setTimeout(() => resolve(seq), options.ms ?? 0)));
  const $count = createStore(0, { serialize: 'ignore' }).on(shown, (n) => n + 1);
  const $result = createStore<(R & { seq: number }) | null>(null, { serialize: 'ignore' });
  sample({ clock: shown, source: $count, fn: (seq, result) => ({ ...result, seq }), target: $result });
  $result.on(timerFx.doneData, (current, seq) => (current?.seq === seq ? null : current)).reset(closed, ...(options.resetOn ?? []));
  if (options.ms !== null) sample({ clock: $result, filter: (r) => r !== null, fn: (r) => r!.seq, target: timerFx });
  return { shown, closed, timerFx, $result };
}
