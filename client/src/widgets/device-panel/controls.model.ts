import { createEffect, createEvent, createStore, sample, scopeBind } from 'effector';
import { createApiFx, http, HttpError, segment } from '../../shared/api';
import { $multiSelected, $panelSerial, fetchPanelDeviceFx, panelClosed, panelDeviceReplaced, type PanelDevice } from './model';
import { yieldToBrowser } from '../../shared/lib';

// This module's units are built in a task of their own (yield-to-browser.ts says why).
await yieldToBrowser();

/**
 * The device control panel's writes (spec section 2: toggles Maintenance, Activated, Anti vandalism,
 * Pause/Resume; RESET tsp; withdrawing a pending change) and the notice each one shows (spec section 8
 * texts). Every write answers the device, which goes into the device store at once; the push keeps it
 * current afterwards.
 */
export type DeviceAction =
  | { serial: string; kind: 'pause'; value: boolean }
  | { serial: string; kind: 'maintenance' | 'vandalism' | 'active'; value: boolean }
  | { serial: string; kind: 'resetMl'; pump: 1 | 2 }
  | { serial: string; kind: 'cancel'; changeId: number };

export type Notice = { tone: 'success' | 'danger'; text: string; seq: number };

export const SOMETHING_WRONG = 'Something went wrong.';
export const CONFIG_SAVED = 'Your config setup has been successfully saved.';

/** The notice a successful action shows (spec section 8 where the spec names one). */
export function successText(action: DeviceAction): string {
  switch (action.kind) {
    case 'maintenance':
      return action.value ? 'Maintenance activated' : 'Maintenance deactivated';
    case 'vandalism':
      return action.value ? 'Anti vandalism activated' : 'Anti vandalism deactivated';
    case 'active':
      return CONFIG_SAVED;
    case 'pause':
      return action.value ? 'Device paused' : 'Device resumed';
    case 'resetMl':
      return 'Remaining amount reset';
    case 'cancel':
      return 'The change was cancelled.';
  }
}

type Answer = PanelDevice | { device: PanelDevice };
const deviceOf = (answer: Answer): PanelDevice => ('device' in answer ? answer.device : answer);

export const deviceActionFx = createApiFx(async (action: DeviceAction): Promise<PanelDevice> => {
  const s = segment(action.serial);
  switch (action.kind) {
    case 'pause':
      return deviceOf(await http<Answer>(`/api/v1/setPauseDevice/${s}`, { method: 'POST', json: { isPause: action.value } }));
    case 'maintenance':
      return deviceOf(await http<Answer>(`/api/v1/set_device_config/${s}`, { method: 'POST', json: { is_enabled_maintenance: action.value } }));
    case 'vandalism':
      return deviceOf(await http<Answer>(`/api/v1/set_device_config/${s}`, { method: 'POST', json: { is_enabled_vandalism: action.value } }));
    case 'active':
      return deviceOf(await http<Answer>(`/api/v1/set_device_config/${s}`, { method: 'POST', json: { active: action.value } }));
    case 'resetMl':
      return deviceOf(await http<Answer>(`/api/v1/resetMl/${s}`, { method: 'POST', json: { pumpNumber: action.pump } }));
    case 'cancel':
      return deviceOf(await http<Answer>(`/api/v1/cancelPendingChange/${action.changeId}`, { method: 'POST' }));
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
sample({ clock: noticeDisplayed, source: $notice, filter: (n, seq) => n !== null && n.phase !== 'loading' && n.seq === seq, fn: (_, seq) => seq, target: hideLaterFx });

/**
 * A toggle shows the value asked for while its call runs; when the call fails it goes back (spec section
 * 4: reverts on error), and the device is read again. Keyed 'serial:kind'.
 */
export const $optimistic = createStore<Record<string, boolean>>({});
const toggleKinds = new Set(['pause', 'maintenance', 'vandalism', 'active']);
$optimistic
  .on(deviceActionFx, (state, a) => ('value' in a && toggleKinds.has(a.kind) ? { ...state, [`${a.serial}:${a.kind}`]: a.value } : state))
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
export const toggleShown = (optimistic: Record<string, boolean>, serial: string, kind: 'pause' | 'maintenance' | 'vandalism' | 'active', actual: boolean) =>
  optimistic[`${serial}:${kind}`] ?? actual;

sample({ clock: deviceActionFx, fn: () => SAVING, target: controlStarted });
sample({ clock: deviceActionFx.doneData, target: panelDeviceReplaced });
sample({ clock: deviceActionFx.done, fn: ({ params }) => ({ tone: 'success' as const, text: successText(params) }), target: noticeShown });
sample({ clock: deviceActionFx.fail, fn: ({ error }) => ({ tone: 'danger' as const, text: failureText(error) }), target: noticeShown });
// A refused change may leave the shown state behind the server's: read it again.
sample({ clock: deviceActionFx.fail, fn: ({ params }) => params.serial, target: fetchPanelDeviceFx });

// ---------------------------------------------------------------- pump, timer and rental setup

export type PumpSetting = {
  steps_per_second: number;
  steps_per_ml: number;
  ml_per_shot: number;
  pump_mode: number | null;
  steps_per_second2: number;
  steps_per_ml2: number;
  ml_per_shot2: number;
  pump_mode2: number | null;
  vandalism_max_shots: number;
  vandalism_interval: number;
};
export type Rental = {
  start_date: string | null;
  end_date: string | null;
  start_time: string | null;
  end_time: string | null;
  pump_2_start_time: string | null;
  pump_2_end_time: string | null;
  day_count: number;
};
export type RentalWrite = { serials: string[]; startDate: string; endDate: string; startTime: string | null; endTime: string | null; pump2StartTime: string | null; pump2EndTime: string | null };

export const PUMP_SAVED = 'Your pump settings have been successfully updated.';
export const PUMP_FAILED = 'Oops! There was an error updating your pump settings. Please try again later.';
export const TIME_SAVED = 'Your time setup has been successfully saved.';
export const TIME_FAILED = 'Oops! There was an error saving your time setup. Please try again later.';
export const RENTAL_SAVED = 'New plan has been successfully set';

export const fetchPumpSettingFx = createApiFx((serial: string) => http<PumpSetting>(`/api/v1/pumpSetting/${segment(serial)}`));
export const savePumpSettingFx = createApiFx(({ serial, setting }: { serial: string; setting: Partial<PumpSetting> }) =>
  http<PumpSetting>(`/api/v1/editPumpSetting/${segment(serial)}`, { method: 'PUT', json: setting }),
);
export const saveTimerFx = createApiFx(({ serial, powerOffTime, wakeUpTime }: { serial: string; powerOffTime: number; wakeUpTime: number }) =>
  http<{ detail: string; device: PanelDevice }>(`/api/v1/deviceRegistrationSetup/${segment(serial)}`, { method: 'POST', json: { powerOffTime, wakeUpTime } }),
);
export const fetchRentalFx = createApiFx((serial: string) => http<Rental>(`/api/v1/rentalV2/${segment(serial)}`));
export type RentalSaved = { detail: string; rentals: (Rental & { serial: string })[] };
export const saveRentalFx = createApiFx((input: RentalWrite) => http<RentalSaved>('/api/v1/rentalV2', { method: 'POST', json: input }));

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
sample({ clock: saveRentalFx.fail, fn: ({ error }) => ({ tone: 'danger' as const, text: failureText(error) }), target: noticeShown });
// A saved setting is pending for the device: read the device for its new pending flags.
sample({ clock: [savePumpSettingFx.done, saveRentalFx.done], source: $panelSerial, filter: (s): s is string => s !== null, fn: (s) => s as string, target: fetchPanelDeviceFx });
