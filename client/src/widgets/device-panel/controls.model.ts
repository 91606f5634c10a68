import { devicesApi } from '@fleet/shared';
import { createEffect, createEvent, createStore, sample, scopeBind } from 'effector';
import { deviceOfWriteAnswer } from '../../entities/device';
import { deviceConfigText, setDeviceConfig } from '../../features/device-config';
import { pauseDevice, pauseText } from '../../features/pause-device';
import { PUMP_FAILED, PUMP_SAVED, savePumpSettingFx } from '../../features/pump-setup';
import { saveTimerFx, TIME_FAILED, TIME_SAVED } from '../../features/registration-setup';
import { RENTAL_SAVED, saveRentalFx } from '../../features/rental-plan';
import { resetRemaining, RESET_DONE } from '../../features/reset-remaining';
import { call, createApiFx, HttpError } from '../../shared/api';
import { $multiSelected, $panelSerial, fetchPanelDeviceFx, panelClosed, panelDeviceReplaced, type PanelDevice } from './model';
import { yieldToBrowser } from '../../shared/lib';

// This module's units are built in a task of their own (yield-to-browser.ts says why).
await yieldToBrowser();

/**
 * The device control panel's writes (spec section 2: toggles Maintenance, Activated, Anti vandalism,
 * Pause/Resume; RESET tsp; withdrawing a pending change) and the notice each one shows (spec section 8
 * texts), composed from the features that make each call (features/pause-device, device-config,
 * reset-remaining; the setup forms' pump-setup, registration-setup, rental-plan). Every write answers the
 * device, which goes into the device store at once; the push keeps it current afterwards.
 */
export type DeviceAction =
  | { serial: string; kind: 'pause'; value: boolean }
  | { serial: string; kind: 'maintenance' | 'vandalism' | 'active'; value: boolean }
  | { serial: string; kind: 'resetMl'; pump: 1 | 2 }
  | { serial: string; kind: 'cancel'; changeId: number };

export type Notice = { tone: 'success' | 'danger'; text: string; seq: number };

export const SOMETHING_WRONG = 'Something went wrong.';

/** The notice a successful action shows (spec section 8 where the spec names one). */
export function successText(action: DeviceAction): string {
  switch (action.kind) {
    case 'maintenance':
    case 'vandalism':
    case 'active':
      return deviceConfigText(action.kind, action.value);
    case 'pause':
      return pauseText(action.value);
    case 'resetMl':
      return RESET_DONE;
    case 'cancel':
      return 'The change was cancelled.';
  }
}

export const deviceActionFx = createApiFx(async (action: DeviceAction): Promise<PanelDevice> => {
  switch (action.kind) {
    case 'pause':
      return pauseDevice(action.serial, action.value);
    case 'maintenance':
    case 'vandalism':
    case 'active':
      return setDeviceConfig(action.serial, action.kind, action.value);
    case 'resetMl':
      return resetRemaining(action.serial, action.pump);
    case 'cancel':
      return deviceOfWriteAnswer(await call(devicesApi.cancelPendingChange, { params: { id: action.changeId } }));
  }
});

/** The first message of a 400 answer (`{ field: [msg] }` or `{ detail }`), else the spec's generic text. */
export function failureText(error: unknown): string {
  if (error instanceof HttpError && error.status === 400) {
    if (error.detail) return error.detail;
    const first = Object.values((error.body ?? {}) as Record<string, unknown>).find(Array.isArray) as string[] | undefined;
    if (first?.[0]) return first[0];
  }
  return SOMETHING_WRONG;
}

/**
 * The control dialog of spec section 4: every change shows a loading dialog, then its success or error,
 * and closes about 1 s after the result. It does not take focus (a slider being dragged keeps it) and
 * blocks nothing; the result is announced as a status, or as an alert when it failed.
 */
export const noticeShown = createEvent<Omit<Notice, 'seq'>>();
export const noticeDismissed = createEvent();
/**
 * The dialog shows a result (its `seq`), sent by the view once it is on screen: the 1 s until it closes
 * count from there. Counted from the store's change, a page busy rendering (a slow phone, a loaded host:
 * a refused change re-reads the device) showed a result for half a second or less.
 */
export const noticeDisplayed = createEvent<number>();
export const controlStarted = createEvent<string>();
export type ControlDialog = { phase: 'loading' | 'success' | 'danger'; text: string; seq: number };
export const $notice = createStore<ControlDialog | null>(null);
/** Spec section 4: the dialog closes about 1 s after the result. */
export const RESULT_CLOSE_MS = 1000;
export const SAVING = 'Saving ...';
const hideLaterFx = createEffect((seq: number) => {
  const dismiss = scopeBind(noticeTimedOut, { safe: true });
  setTimeout(() => dismiss(seq), RESULT_CLOSE_MS);
});
const noticeTimedOut = createEvent<number>();

$notice
  .on(controlStarted, (current, text) => ({ phase: 'loading', text, seq: (current?.seq ?? 0) + 1 }))
  .on(noticeShown, (current, notice) => ({ phase: notice.tone, text: notice.text, seq: (current?.seq ?? 0) + 1 }))
  .on(noticeTimedOut, (current, seq) => (current?.seq === seq ? null : current))
  .reset(noticeDismissed, panelClosed);
sample({
  clock: noticeDisplayed,
  source: $notice,
  filter: (n, seq) => n !== null && n.phase !== 'loading' && n.seq === seq,
  fn: (_, seq) => seq,
  target: hideLaterFx,
});

/**
 * A toggle shows the value asked for while its call runs; when the call fails it goes back (spec section
 * 4: reverts on error), and the device is read again. Keyed 'serial:kind'.
 */
export const $optimistic = createStore<Record<string, boolean>>({});
const toggleKinds = new Set(['pause', 'maintenance', 'vandalism', 'active']);
$optimistic
  .on(deviceActionFx, (state, a) =>
    'value' in a && toggleKinds.has(a.kind) ? { ...state, [`${a.serial}:${a.kind}`]: a.value } : state,
  )
  .on(deviceActionFx.finally, (state, { params: a }) => {
    const { [`${a.serial}:${a.kind}`]: _gone, ...rest } = state;
    return rest;
  })
  .reset(panelClosed);
/** The action whose call runs now (its own button shows the spinner, not every button). */
export const $runningAction = createStore<DeviceAction | null>(null)
  .on(deviceActionFx, (_, action) => action)
  .reset(deviceActionFx.finally, panelClosed);
/** The value a toggle shows: the one asked for while its call runs, else the device's. */
export const toggleShown = (
  optimistic: Record<string, boolean>,
  serial: string,
  kind: 'pause' | 'maintenance' | 'vandalism' | 'active',
  actual: boolean,
) => optimistic[`${serial}:${kind}`] ?? actual;

sample({ clock: deviceActionFx, fn: () => SAVING, target: controlStarted });
sample({ clock: deviceActionFx.doneData, target: panelDeviceReplaced });
sample({
  clock: deviceActionFx.done,
  fn: ({ params }) => ({ tone: 'success' as const, text: successText(params) }),
  target: noticeShown,
});
sample({
  clock: deviceActionFx.fail,
  fn: ({ error }) => ({ tone: 'danger' as const, text: failureText(error) }),
  target: noticeShown,
});
// A refused change may leave the shown state behind the server's: read it again.
sample({ clock: deviceActionFx.fail, fn: ({ params }) => params.serial, target: fetchPanelDeviceFx });

// ---------------------------------------------------------------- pump, timer and rental setup (features/pump-setup, registration-setup, rental-plan)

sample({ clock: [savePumpSettingFx, saveTimerFx, saveRentalFx], fn: () => SAVING, target: controlStarted });
sample({ clock: savePumpSettingFx.done, fn: () => ({ tone: 'success' as const, text: PUMP_SAVED }), target: noticeShown });
sample({ clock: savePumpSettingFx.fail, fn: () => ({ tone: 'danger' as const, text: PUMP_FAILED }), target: noticeShown });
sample({ clock: saveTimerFx.done, fn: () => ({ tone: 'success' as const, text: TIME_SAVED }), target: noticeShown });
sample({ clock: saveTimerFx.fail, fn: () => ({ tone: 'danger' as const, text: TIME_FAILED }), target: noticeShown });
sample({ clock: saveTimerFx.doneData, fn: ({ device }) => device, target: panelDeviceReplaced });
sample({ clock: saveRentalFx.done, fn: () => ({ tone: 'success' as const, text: RENTAL_SAVED }), target: noticeShown });
// A saved plan ends the multi-select mode: the cards are device cards again.
$multiSelected.reset(saveRentalFx.done);
// The spec: a rental failure shows the server's answer as the error toast.
sample({
  clock: saveRentalFx.fail,
  fn: ({ error }) => ({ tone: 'danger' as const, text: failureText(error) }),
  target: noticeShown,
});
// A saved setting is pending for the device: read the device for its new pending flags.
sample({
  clock: [savePumpSettingFx.done, saveRentalFx.done],
  source: $panelSerial,
  filter: (s): s is string => s !== null,
  fn: (s) => s as string,
  target: fetchPanelDeviceFx,
});
