import { allSettled, createEvent, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { createResultPopup } from './result-popup';

describe('createResultPopup', () => {
  it('numbers each popup; a timer that ends with an earlier number leaves the later popup on show', async () => {
    const popup = createResultPopup({ ms: 1000 });
    const timers: number[] = [];
    // The second popup's timer ends as if it were the first's: it must not close the second.
    const scope = fork({ handlers: [[popup.timerFx, async (seq: number) => (timers.push(seq), seq === 2 ? 1 : -1)]] });
    await allSettled(popup.shown, { scope, params: { tone: 'success', title: 'DONE', message: null } });
    await allSettled(popup.shown, { scope, params: { tone: 'danger', title: 'FAILED', message: 'why' } });
    expect(timers).toEqual([1, 2]);
    expect(scope.getState(popup.$result)).toEqual({ tone: 'danger', title: 'FAILED', message: 'why', seq: 2 });
  });

  it('closes itself once its own timer ends', async () => {
    const popup = createResultPopup({ ms: 1000 });
    const scope = fork({ handlers: [[popup.timerFx, async (seq: number) => seq]] });
    await allSettled(popup.shown, { scope, params: { tone: 'success', title: 'DONE', message: null } });
    expect(scope.getState(popup.$result)).toBeNull();
  });

  it('without ms it stays until closed or reset', async () => {
    const reset = createEvent();
    const popup = createResultPopup({ ms: null, resetOn: [reset] });
    const timers: number[] = [];
    const scope = fork({ handlers: [[popup.timerFx, async (seq: number) => (timers.push(seq), seq)]] });
    await allSettled(popup.shown, { scope, params: { tone: 'success', title: 'RECALLED', message: null } });
    expect(timers).toEqual([]);
    await allSettled(reset, { scope });
    expect(scope.getState(popup.$result)).toBeNull();
    await allSettled(popup.shown, { scope, params: { tone: 'success', title: 'RECALLED', message: null } });
    await allSettled(popup.closed, { scope });
    expect(scope.getState(popup.$result)).toBeNull();
  });
});
