import { rentalDatesProblem } from '@fleet/shared';
import { combine, createEvent, createStore, sample } from 'effector';
import { $accessLevel } from '../../entities/session';
import { createDebounce } from '../../shared/lib';
import { fetchPumpSettingFx, pumpSettingWrite, savePumpSettingFx, type PumpSetting } from '../../features/pump-setup';
import { saveTimerFx } from '../../features/registration-setup';
import { fetchRentalFx, rentalFormOf, saveRentalFx, type Rental, type RentalForm } from '../../features/rental-plan';
import { siteToday } from './lib/panel-lib';
import { $multiSelected, $panelDevice, $section, valueAtLoad, type PanelSection } from './model';

/**
 * The forms of the Device Management section (Pump Setup, Registration Setup) and of the Device
 * Subscription section (spec section 2). Each reads its data when its section is shown for a loaded
 * device, and again whenever it is shown anew (another device, back from another section). The two
 * management forms save themselves after a quiet time (spec section 9); a save still waiting when the
 * section is left is dropped, as the form it was typed in is gone (what the panel has always done).
 */
/** Debounces of spec section 9: pump mode 1 s, time saves 0.5 s. */
export const PUMP_DEBOUNCE_MS = 1000;
export const TIME_DEBOUNCE_MS = 500;

// The panel shows these sections to operators only: nobody else reads or saves from them.
const $operator = $accessLevel.map((level) => level === 'distributor' || level === 'market-partner');
const $loadedSerial = $panelDevice.map((d) => d?.serial ?? null);
/** The serial whose `section` is on screen, else null (a string: a push patching the device moves nothing). */
const shownSerial = (section: PanelSection) =>
  combine($loadedSerial, $section, $operator, (serial, shown, operator) => (operator && shown === section ? serial : null));
const isSerial = (serial: string | null): serial is string => serial !== null;

// ---------------------------------------------------------------- Pump Setup

export const $managementSerial = shownSerial('management');
// This model is made when the sections' chunk loads, perhaps with a section already open: read it then too.
const managementSerialAtLoad = valueAtLoad($managementSerial);
export type SetupStatus = 'loading' | 'ready' | 'failed';
export const pumpSettingChanged = createEvent<Partial<PumpSetting>>();
export const $pumpSetting = createStore<PumpSetting | null>(null);
export const $pumpSettingStatus = createStore<SetupStatus>('loading');

sample({ clock: [$managementSerial, managementSerialAtLoad], filter: isSerial, target: fetchPumpSettingFx });
const pumpLoaded = sample({
  clock: fetchPumpSettingFx.done,
  source: $managementSerial,
  filter: (serial, { params }) => serial === params,
  fn: (_, { result }) => result,
});
const pumpFailed = sample({
  clock: fetchPumpSettingFx.fail,
  source: $managementSerial,
  filter: (serial, { params }) => serial === params,
});
const pumpEdited = sample({
  clock: pumpSettingChanged,
  source: { serial: $managementSerial, setting: $pumpSetting },
  filter: ({ serial, setting }) => serial !== null && setting !== null,
  fn: ({ serial, setting }, change) => ({ serial: serial as string, setting: { ...(setting as PumpSetting), ...change } }),
});
/**
 * The setting as the server last had it (read, or answered by a save): what the form goes back to when a
 * save fails (spec section 4: a control reverts on error; the error dialog is controls.model's).
 */
export const $pumpSettingSaved = createStore<PumpSetting | null>(null);
const pumpSaveAnswered = sample({
  clock: savePumpSettingFx.done,
  source: $managementSerial,
  filter: (serial, { params }) => serial === params.serial,
  fn: (_, { result }) => result,
});
/** A failed save of the device shown: the form shows the saved setting again, and an edit still waiting is dropped. */
const pumpSaveRefused = sample({
  clock: savePumpSettingFx.fail,
  source: { serial: $managementSerial, saved: $pumpSettingSaved },
  filter: ({ serial, saved }, { params }) => serial === params.serial && saved !== null,
  fn: ({ saved }) => saved as PumpSetting,
});
$pumpSettingSaved
  .on(fetchPumpSettingFx, () => null)
  .on(pumpLoaded, (_, setting) => setting)
  .on(pumpSaveAnswered, (_, setting) => setting);
$pumpSetting
  .on(fetchPumpSettingFx, () => null)
  .on(pumpLoaded, (_, setting) => setting)
  .on(pumpEdited, (_, { setting }) => setting)
  .on(pumpSaveRefused, (_, saved) => saved);
$pumpSettingStatus
  .on(fetchPumpSettingFx, () => 'loading')
  .on(pumpLoaded, () => 'ready')
  .on(pumpFailed, () => 'failed');
/** Exposed for tests: its timer can be shortened in a forked scope. */
export const pumpSaveDebounce = createDebounce(pumpEdited, PUMP_DEBOUNCE_MS, { cancelOn: [$managementSerial, pumpSaveRefused] });
sample({
  clock: pumpSaveDebounce.fired,
  fn: ({ serial, setting }) => ({ serial, setting: pumpSettingWrite(setting) }),
  target: savePumpSettingFx,
});

// ---------------------------------------------------------------- Registration Setup

export type TimerForm = { powerOff: number; wakeUp: number };
export const timerChanged = createEvent<TimerForm>();
export const $timerForm = createStore<TimerForm>({ powerOff: 60, wakeUp: 60 });
/** The times as the server last had them: what the fields go back to when a save fails (spec section 4). */
export const $timerSaved = createStore<TimerForm>({ powerOff: 60, wakeUp: 60 });
// Only showing the section (anew) fills the fields: a push for this device must not overwrite what is being typed.
sample({
  clock: [$managementSerial, managementSerialAtLoad],
  source: $panelDevice,
  filter: (device, serial) => device !== null && serial !== null,
  fn: (device) => ({ powerOff: Number(device?.poweroff_time ?? 60), wakeUp: Number(device?.wakeup1_time ?? 60) }),
  target: [$timerForm, $timerSaved],
});
const timerEdited = sample({
  clock: timerChanged,
  source: $managementSerial,
  filter: isSerial,
  fn: (serial, form) => ({ serial: serial as string, ...form }),
});
sample({
  clock: saveTimerFx.done,
  source: $managementSerial,
  filter: (serial, { params }) => serial === params.serial,
  fn: (_, { params }) => ({ powerOff: params.powerOffTime, wakeUp: params.wakeUpTime }),
  target: $timerSaved,
});
/** A failed save of the device shown: the fields show the saved times again, and an edit still waiting is dropped. */
const timerSaveRefused = sample({
  clock: saveTimerFx.fail,
  source: { serial: $managementSerial, saved: $timerSaved },
  filter: ({ serial }, { params }) => serial === params.serial,
  fn: ({ saved }) => saved,
});
$timerForm.on(timerEdited, (_, { powerOff, wakeUp }) => ({ powerOff, wakeUp })).on(timerSaveRefused, (_, saved) => saved);
/** Exposed for tests: its timer can be shortened in a forked scope. */
export const timerSaveDebounce = createDebounce(timerEdited, TIME_DEBOUNCE_MS, {
  cancelOn: [$managementSerial, timerSaveRefused],
});
sample({
  clock: timerSaveDebounce.fired,
  fn: ({ serial, powerOff, wakeUp }) => ({ serial, powerOffTime: powerOff, wakeUpTime: wakeUp }),
  target: saveTimerFx,
});

// ---------------------------------------------------------------- Device Subscription

export const $subscriptionSerial = shownSerial('subscription');
const subscriptionSerialAtLoad = valueAtLoad($subscriptionSerial);
export const rentalFormChanged = createEvent<Partial<RentalForm>>();
export const rentalEditStarted = createEvent();
export const rentalSaveClicked = createEvent();
/** The plan on the device (null: none, or it could not be read). */
export const $rental = createStore<Rental | null>(null);
export const $rentalStatus = createStore<'loading' | 'ready'>('loading');
// Before any panel opens: today in UTC (what siteToday answers without a zone), read without building an
// Intl formatter while the map page's module evaluates (a long task of its own on a slow phone); the form is
// filled in the device's zone when a subscription section opens (subscriptionShown).
export const $rentalForm = createStore<RentalForm>(rentalFormOf(null, new Date().toISOString().slice(0, 10)));
export const $rentalEditing = createStore(false);

const subscriptionShown = sample({
  clock: [$subscriptionSerial, subscriptionSerialAtLoad],
  source: $panelDevice,
  filter: (device, serial) => device !== null && serial !== null,
  fn: (device) => device?.timezone_id ?? null,
});
sample({ clock: [$subscriptionSerial, subscriptionSerialAtLoad], filter: isSerial, target: fetchRentalFx });
const rentalLoaded = sample({
  clock: fetchRentalFx.done,
  source: { serial: $subscriptionSerial, device: $panelDevice },
  filter: ({ serial }, { params }) => serial === params,
  fn: ({ device }, { result }) => {
    const rental = result.start_date ? result : null;
    return { rental, form: rentalFormOf(rental, siteToday(Date.now(), device?.timezone_id)) };
  },
});
const rentalFailed = sample({
  clock: fetchRentalFx.fail,
  source: $subscriptionSerial,
  filter: (serial, { params }) => serial === params,
});
const rentalSaved = sample({
  clock: saveRentalFx.done,
  source: $subscriptionSerial,
  filter: isSerial,
  fn: (serial, { result }) => result.rentals.find((r) => r.serial === serial) ?? null,
});
$rental
  .on(subscriptionShown, () => null)
  .on(rentalLoaded, (_, { rental }) => rental)
  .on(rentalSaved, (current, mine) => mine ?? current);
$rentalStatus
  .on(subscriptionShown, () => 'loading')
  .on(rentalLoaded, () => 'ready')
  .on(rentalFailed, () => 'ready');
$rentalForm
  .on(subscriptionShown, (_, zone) => rentalFormOf(null, siteToday(Date.now(), zone)))
  .on(rentalLoaded, (_, { form }) => form)
  .on(rentalFormChanged, (form, change) => ({ ...form, ...change }));
// Without a plan the form opens for editing; a saved plan closes it.
$rentalEditing
  .on(subscriptionShown, () => false)
  .on(rentalLoaded, (_, { rental }) => !rental)
  .on(rentalEditStarted, () => true)
  .on(rentalSaved, () => false);
/** Why the plan cannot be saved (an end before the start, a cleared date); Save is disabled while there is one. */
export const $rentalProblem = $rentalForm.map((form) => rentalDatesProblem(form.startDate, form.endDate));
// Multi-select: the plan is saved on every chosen device, else on the one shown.
sample({
  clock: rentalSaveClicked,
  source: { serial: $subscriptionSerial, chosen: $multiSelected, form: $rentalForm, problem: $rentalProblem },
  filter: ({ serial, problem }) => serial !== null && problem === null,
  fn: ({ serial, chosen, form }) => ({ serials: chosen ?? [serial as string], ...form }),
  target: saveRentalFx,
});
