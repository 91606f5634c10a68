import { createEffect, createEvent, createStore, sample, type Unit } from 'effector';
import { firstErrorMessage } from '@fleet/shared';
import { HttpError } from '../../shared/api';

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

/** The server's words for a failed call: its detail, else a 400's first message, else nothing (the title says it failed). */
export function serverReason(error: unknown): string | null {
  if (!(error instanceof HttpError)) return null;
  if (error.status === 0) return error.message;
  if (error.detail) return error.detail;
  if (error.status === 400) return firstErrorMessage(error.body);
  return null;
}

/** The field messages of a 400 answer (`{ field: ['message'] }`), first message per field. */
export function fieldMessages(error: unknown): Record<string, string> {
  if (!(error instanceof HttpError) || error.status !== 400 || !error.body || typeof error.body !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(error.body as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value.find((m) => typeof m === 'string') : typeof value === 'string' ? value : undefined;
    if (typeof first === 'string' && key !== 'detail') out[key] = first;
  }
  return out;
}
