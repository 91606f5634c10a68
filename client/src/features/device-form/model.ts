import {
  type AvailableDevice,
  placesApi,
  fieldErrors,
  PUMP_TYPE_CODE,
  type BatchAnswer,
  type DeviceAnswer,
  type DeviceFormInput,
  type LocationEventType,
  type PumpType,
  batchesApi,
  devicesApi,
  brandsApi,
} from '@fleet/shared';
import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { countiesRequested } from '../../entities/county';
import { devicesRequested } from '../../entities/device';
import { overviewRequested } from '../../entities/overview';
import { sessionEnded } from '../../entities/session';
import { call, createApiFx, GENERIC_FAILURE, HttpError, nearestPlace, nearestPlaceText, serverReason } from '../../shared/api';
import { createResultPopup } from '../../shared/lib';
import {
  $canManageDevices,
  addDeviceOpened,
  deviceDeleted,
  deviceFormClosed,
  deviceSaved,
  editDeviceOpened,
  pinNamed,
  pinPlacedOnMap,
  placeOnMapRequested,
  placingOnMapEnded,
  type LatLngPoint,
} from './entry';

export { addDeviceOpened, deviceDeleted, deviceFormClosed, deviceSaved, editDeviceOpened } from './entry';

/**
 * The ADD NEW DEVICE and EDIT DEVICE popups (spec sections 2, 5 and 8). Add places an available
 * serial on a site; edit changes a placed device (its serial and pump types stay) or deletes it after a
 * confirmation. The form is checked with the shared `deviceFormSchema` before anything is sent, and a
 * 400 from the server lands under the same fields. A result popup says how it went and closes itself;
 * a success re-reads the devices and the overview so the device shows on the map and in its county.
 * Only distributors open these forms (spec section 6); the server refuses everyone else too.
 */
export type FormMode = 'closed' | 'add' | 'edit';

export type DeviceFormValues = {
  serialNumber: string;
  deviceName: string;
  /** A brand id, '' while none is chosen. */
  brandId: string;
  deviceNumber: string;
  locationEventType: LocationEventType;
  leftPumpType: PumpType;
  rightPumpType: PumpType;
  /** Batch ids as select values, '' while none is chosen. */
  batchNumber: string;
  batch2Number: string;
  address: string;
  /** Set only by choosing a suggestion: a typed address has no coordinate. */
  location: { lat: number; lng: number } | null;
  simcardPhoneNumber: string;
  imei: string;
  simSerialNumber: string;
};
/** The fields typed or chosen directly (address and serial have their own events). */
export type EnteredField = Exclude<
  keyof DeviceFormValues,
  'location' | 'address' | 'serialNumber' | 'leftPumpType' | 'rightPumpType' | 'locationEventType'
>;
export type FieldErrors = Partial<Record<keyof DeviceFormValues, string>>;

/** GET /api/v1/avaliableDevice: a provisioned serial that is not placed yet. */
export type BrandChoice = { id: number; name: string };
/** One row of GET /api/v1/placeSuggestions (US and AU only). */
export type PlaceSuggestion = { place_id: string; description: string; location: { lat: number; lng: number } };
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'failed';
/** The Latitude and Longitude fields as typed. */
export type CoordinateText = { lat: string; lng: string };
/** The town a pin is near: its text, or null while unknown or when none is near. */
export type PinName = { status: LoadStatus; text: string | null; town: string | null };

/** A typed coordinate pair, when both are numbers in range. */
export function parseCoordinates(typed: CoordinateText): LatLngPoint | null {
  const read = (text: string, limit: number) => {
    const trimmed = text.trim().replace(',', '.');
    if (!/^[-+]?\d+(\.\d+)?$/.test(trimmed)) return null;
    const value = Number(trimmed);
    return Math.abs(value) <= limit ? value : null;
  };
  const lat = read(typed.lat, 90);
  const lng = read(typed.lng, 180);
  return lat === null || lng === null ? null : { lat, lng };
}
const coordinateText = (point: LatLngPoint | null): CoordinateText =>
  point ? { lat: point.lat.toFixed(6), lng: point.lng.toFixed(6) } : { lat: '', lng: '' };

/** Spec section 8, word for word. */
export const RESULT_TEXT = {
  added: 'DEVICE ADDED',
  addFailed: 'FAIL TO ADD DEVICE',
  edited: 'DEVICE EDITED',
  editFailed: 'FAIL TO EDIT DEVICE',
  deleted: 'Device has been deleted',
  deleteFailed: 'Something went wrong',
  listLoading: 'Loading ...',
  listFailed: 'Something went wrong !',
} as const;
/** Result popups close themselves (spec section 4: 1 to 2 s after add or edit). */
export const RESULT_MS = 1500;
/** Suggestions are asked for once typing pauses this long. */
export const SUGGEST_DELAY_MS = 300;
export const SUGGEST_MIN_CHARS = 2;
export const PLACE_COUNTRIES = 'us,au';
/** Typed coordinates are read once typing pauses this long. */
export const COORDINATE_DELAY_MS = 400;
/** Spec section 5's message for a missing coordinate, and what replaces it once no suggestion fits (issue 42). */
export const SELECT_FROM_DROPDOWN = 'Please Select Address From DropDown';
export const NO_SUGGESTION_FITS = 'No suggestion fits: drop a pin on the map or type the coordinates.';

export const EMPTY_FORM: DeviceFormValues = {
  serialNumber: '',
  deviceName: '',
  brandId: '',
  deviceNumber: '',
  locationEventType: 'SITE',
  leftPumpType: 'Sunscreen',
  rightPumpType: 'Unspecified',
  batchNumber: '',
  batch2Number: '',
  address: '',
  location: null,
  simcardPhoneNumber: '',
  imei: '',
  simSerialNumber: '',
};

/** The form as the device answer of GET /api/v1/device/{serial} fills it (edit). */
export function formOfDevice(device: DeviceAnswer): DeviceFormValues {
  const id = (v: number | null) => (v == null ? '' : String(v));
  return {
    serialNumber: device.serial,
    deviceName: device.label ?? '',
    brandId: id(device.brand),
    deviceNumber: id(device.number),
    locationEventType: device.location_event_type === 'EVENT' ? 'EVENT' : 'SITE',
    leftPumpType: device.left_pump_type as PumpType,
    rightPumpType: device.right_pump_type as PumpType,
    batchNumber: id(device.batch),
    batch2Number: id(device.batch2Id),
    address: device.address ?? '',
    location: device.location,
    simcardPhoneNumber: device.simcardPhoneNumber ?? '',
    imei: device.imei ?? '',
    simSerialNumber: device.simSerialNumber ?? '',
  };
}

/** What the form sends before the schema reads it: chosen ids as numbers, no right batch without a right pump. */
export function formInput(form: DeviceFormValues): Record<string, unknown> {
  const ref = (v: string) => (v === '' ? '' : Number(v));
  return {
    ...form,
    batchNumber: ref(form.batchNumber),
    batch2Number: form.rightPumpType === 'Unspecified' ? null : ref(form.batch2Number),
  };
}

/** Field messages keyed like the form; the coordinate's message shows under the address. */
export function formErrorsOf(body: Record<string, unknown>): FieldErrors {
  const errors: FieldErrors = {};
  const first = (v: unknown) =>
    Array.isArray(v) ? (v.find((m) => typeof m === 'string') as string | undefined) : typeof v === 'string' ? v : undefined;
  for (const [key, value] of Object.entries(body)) {
    const message = first(value);
    if (!message) continue;
    const field = (key === 'location' ? 'address' : key) as keyof DeviceFormValues;
    if (!(field in EMPTY_FORM)) continue;
    // An empty address is 'Required' first; the missing coordinate is the next thing to fix.
    errors[field] ??= message;
  }
  return errors;
}

export type Checked = { ok: true; input: DeviceFormInput } | { ok: false; errors: FieldErrors };

/**
 * The shared device schemas come with the form, not with the map page: building them (zod) took about 50 ms
 * of the map page's start-up on a phone-sized load (tests/perf/map-trace.ts), for a form most visits never
 * open. Loaded when the form opens, so a save rarely waits for them.
 */
let deviceSchemas: Promise<typeof import('@fleet/shared/schemas/device')> | null = null;
const loadDeviceSchemas = () => {
  deviceSchemas ??= import('@fleet/shared/schemas/device').catch((error: unknown) => {
    deviceSchemas = null; // a failed download is tried again at the next save
    throw error;
  });
  return deviceSchemas;
};

/** The client-side check: the same schema the server parses with (spec section 5 messages). */
export async function checkForm(form: DeviceFormValues): Promise<Checked> {
  const { deviceFormSchema } = await loadDeviceSchemas();
  const parsed = deviceFormSchema.safeParse(formInput(form));
  if (parsed.success) return { ok: true, input: parsed.data };
  return { ok: false, errors: formErrorsOf(fieldErrors(parsed.error)) };
}

/** Batches a pump may be given: never an EXPIRED one (spec section 4), nor a recalled lot. */
export const choosableBatches = (batches: readonly BatchAnswer[]): BatchAnswer[] =>
  batches.filter((b) => b.status !== 'EXPIRED' && !b.is_recalled);

// ---------------------------------------------------------------- calls

export const fetchAvailableFx = createApiFx(() => call(devicesApi.available));
export const fetchBrandsFx = createApiFx<void, BrandChoice[]>(() => call(brandsApi.list));
export const fetchBatchesFx = createApiFx((pumpTypeCode: number) => call(batchesApi.choosable, { params: { pumpTypeCode } }));
export const fetchDeviceFx = createApiFx((serial: string) => call(devicesApi.get, { params: { serial } }));
export const fetchSuggestionsFx = createApiFx(async (input: string) => {
  return (await call(placesApi.placeSuggestions, { query: { input, country: PLACE_COUNTRIES } })).suggestions;
});
export const addDeviceFx = createApiFx((input: DeviceFormInput) => call(devicesApi.add, { body: input }));
export const editDeviceFx = createApiFx(({ serial, input }: { serial: string; input: DeviceFormInput }) =>
  call(devicesApi.edit, { params: { serial }, body: input }),
);
export const deleteDeviceFx = createApiFx(async (serial: string) => {
  await call(devicesApi.remove, { params: { serial } });
  return serial;
});
export const fetchNearestPlaceFx = createApiFx((point: LatLngPoint) => nearestPlace(point));
/** Resolves with the coordinates typed once typing has paused. */
export const coordinateDelayFx = createEffect(
  (typed: CoordinateText) =>
    new Promise<CoordinateText>((resolve) => window.setTimeout(() => resolve(typed), COORDINATE_DELAY_MS)),
);
/** Resolves with what was typed once typing has paused. */
export const suggestDelayFx = createEffect(
  (input: string) => new Promise<string>((resolve) => window.setTimeout(() => resolve(input), SUGGEST_DELAY_MS)),
);

// ---------------------------------------------------------------- events

export const fieldChanged = createEvent<{ field: EnteredField; value: string }>();
export const serialChosen = createEvent<string>();
export const pumpTypeChanged = createEvent<{ pump: 'left' | 'right'; type: PumpType }>();
export const locationEventTypeChanged = createEvent<LocationEventType>();
export const addressTyped = createEvent<string>();
export const suggestionChosen = createEvent<PlaceSuggestion>();
export const suggestionsDismissed = createEvent();
export const formSubmitted = createEvent();
/** 'Place on map': the form steps aside while the person drops the pin on the map. */
export const placeOnMapClicked = createEvent();
export const coordinateTyped = createEvent<{ axis: keyof CoordinateText; value: string }>();
export const deleteRequested = createEvent();
export const deleteCancelled = createEvent();
export const deleteConfirmed = createEvent();

/** The form is done (saved or deleted): it closes, the result popup stays. */
const formFinished = createEvent();
const pumpTypesKnown = createEvent<{ left: PumpType; right: PumpType }>();

/** The result popup: it stays when the form closes and closes itself after RESULT_MS, or with OK. */
export const {
  shown: resultShown,
  closed: resultClosed,
  timerFx: resultTimerFx,
  $result,
} = createResultPopup({ ms: RESULT_MS, resetOn: [sessionEnded] });

// ---------------------------------------------------------------- stores

export const $mode = createStore<FormMode>('closed');
export const $editSerial = createStore<string | null>(null);
export const $form = createStore<DeviceFormValues>(EMPTY_FORM);
export const $errors = createStore<FieldErrors>({});
export const $available = createStore<AvailableDevice[]>([]);
export const $availableStatus = createStore<LoadStatus>('idle');
export const $brands = createStore<BrandChoice[]>([]);
/** Choosable batches per pump type code (1 Sunscreen, 2 Sanitizer). */
export const $batchChoices = createStore<Record<number, BatchAnswer[]>>({});
export const $deviceStatus = createStore<LoadStatus>('idle');
export const $suggestions = createStore<PlaceSuggestion[]>([]);
export const $suggestStatus = createStore<LoadStatus>('idle');
export const $confirmingDelete = createStore(false);
/** The pin is being placed on the map: the form is out of the way meanwhile. */
export const $placingOnMap = createStore(false);
/** While placing: where the pin was before (Cancel puts it back); null when not placing. */
const $locationBeforePlacing = createStore<{ location: LatLngPoint | null } | null>(null);
/** The coordinate was set by hand (a pin or typed numbers), not by a suggestion: editing the address keeps it. */
export const $locatedByHand = createStore(false);
export const $coordinateText = createStore<CoordinateText>({ lat: '', lng: '' });
export const $pinName = createStore<PinName>({ status: 'idle', text: null, town: null });
export const $saving = combine(addDeviceFx.pending, editDeviceFx.pending, deleteDeviceFx.pending, (a, e, d) => a || e || d);

export const $leftBatches = combine($form, $batchChoices, (form, choices) => choices[PUMP_TYPE_CODE[form.leftPumpType]] ?? []);
export const $rightBatches = combine($form, $batchChoices, (form, choices) =>
  form.rightPumpType === 'Unspecified' ? [] : (choices[PUMP_TYPE_CODE[form.rightPumpType]] ?? []),
);

// ---------------------------------------------------------------- opening and closing

const addOpened = sample({ clock: addDeviceOpened, filter: $canManageDevices });
const editOpened = sample({ clock: editDeviceOpened, filter: $canManageDevices });

$mode
  .on(addOpened, () => 'add')
  .on(editOpened, () => 'edit')
  .reset(deviceFormClosed, formFinished, sessionEnded);
$editSerial.on(editOpened, (_, serial) => serial).reset(addOpened, deviceFormClosed, formFinished, sessionEnded);
$form.reset(addOpened, editOpened, deviceFormClosed, formFinished, sessionEnded);
$errors.reset(addOpened, editOpened, deviceFormClosed, formFinished, sessionEnded);
$suggestions.reset(addOpened, editOpened, deviceFormClosed, formFinished, sessionEnded, suggestionChosen, suggestionsDismissed);
$suggestStatus.reset(addOpened, editOpened, deviceFormClosed, formFinished, sessionEnded, suggestionChosen, suggestionsDismissed);
// The question closes once the delete starts (deleteConfirmed reads it first: no delete without it).
$confirmingDelete
  .on(deleteRequested, () => true)
  .reset(deleteCancelled, deleteDeviceFx, deviceFormClosed, formFinished, sessionEnded);
$available.reset(sessionEnded);
$brands.reset(sessionEnded);
$batchChoices.reset(sessionEnded);

sample({ clock: [addOpened, editOpened], fn: () => undefined, target: fetchBrandsFx });
sample({ clock: addOpened, fn: () => undefined, target: fetchAvailableFx });
sample({
  clock: addOpened,
  fn: () => ({ left: EMPTY_FORM.leftPumpType, right: EMPTY_FORM.rightPumpType }),
  target: pumpTypesKnown,
});
sample({ clock: editOpened, target: fetchDeviceFx });

$available.on(fetchAvailableFx.doneData, (_, list) => list);
$availableStatus
  .on(fetchAvailableFx, () => 'loading')
  .on(fetchAvailableFx.done, () => 'ready')
  .on(fetchAvailableFx.fail, () => 'failed')
  .reset(sessionEnded);
$brands.on(fetchBrandsFx.doneData, (_, brands) => brands.map(({ id, name }) => ({ id, name })));

// Edit: the device's current values (an answer for a serial no longer being edited is dropped).
const deviceLoaded = sample({
  clock: fetchDeviceFx.done,
  source: { serial: $editSerial, mode: $mode },
  filter: ({ serial, mode }, { params }) => mode === 'edit' && serial === params,
  fn: (_, { result }) => formOfDevice(result),
});
$form.on(deviceLoaded, (_, form) => form);
$deviceStatus
  .on(editOpened, () => 'loading')
  .on(deviceLoaded, () => 'ready')
  .on(fetchDeviceFx.fail, (status) => (status === 'loading' ? 'failed' : status))
  .reset(addOpened, deviceFormClosed, formFinished, sessionEnded);
sample({ clock: deviceLoaded, fn: (form) => ({ left: form.leftPumpType, right: form.rightPumpType }), target: pumpTypesKnown });

// ---------------------------------------------------------------- fields

$form
  .on(fieldChanged, (form, { field, value }) => ({ ...form, [field]: value }))
  .on(locationEventTypeChanged, (form, locationEventType) => ({ ...form, locationEventType }))
  // A batch holds one fluid: a new pump type needs a batch of that fluid.
  .on(pumpTypeChanged, (form, { pump, type }) =>
    pump === 'left' ? { ...form, leftPumpType: type, batchNumber: '' } : { ...form, rightPumpType: type, batch2Number: '' },
  );

// Add: the serial's pump types come from the hardware as provisioned (still changeable before saving).
const serialPicked = sample({
  clock: serialChosen,
  source: $available,
  fn: (available, serial) => ({ serial, device: available.find((d) => d.serial === serial) }),
});
$form.on(serialPicked, (form, { serial, device }) =>
  device && (device.left_pump_type !== form.leftPumpType || device.right_pump_type !== form.rightPumpType)
    ? {
        ...form,
        serialNumber: serial,
        leftPumpType: device.left_pump_type,
        rightPumpType: device.right_pump_type,
        batchNumber: '',
        batch2Number: '',
      }
    : { ...form, serialNumber: serial },
);
sample({
  clock: serialPicked,
  filter: ({ device }) => device !== undefined,
  fn: ({ device }) => ({ left: device!.left_pump_type, right: device!.right_pump_type }),
  target: pumpTypesKnown,
});
sample({
  clock: pumpTypeChanged,
  source: $form,
  fn: (form) => ({ left: form.leftPumpType, right: form.rightPumpType }),
  target: pumpTypesKnown,
});

// The batches of each pump's fluid, read fresh whenever a form opens or a pump type is set.
sample({
  clock: pumpTypesKnown,
  filter: ({ left }) => left !== 'Unspecified',
  fn: ({ left }) => PUMP_TYPE_CODE[left],
  target: fetchBatchesFx,
});
sample({
  clock: pumpTypesKnown,
  filter: ({ left, right }) => right !== 'Unspecified' && right !== left,
  fn: ({ right }) => PUMP_TYPE_CODE[right],
  target: fetchBatchesFx,
});
const batchesLoaded = fetchBatchesFx.done.map(({ params, result }) => ({ code: params, batches: choosableBatches(result) }));
$batchChoices.on(batchesLoaded, (choices, { code, batches }) => ({ ...choices, [code]: batches }));
// A device's current batch that has since expired or been recalled is no choice any more.
$form.on(batchesLoaded, (form, { code, batches }) => {
  const keep = (id: string, type: PumpType) =>
    id === '' || PUMP_TYPE_CODE[type] !== code || batches.some((b) => String(b.id) === id);
  const left = keep(form.batchNumber, form.leftPumpType);
  const right = form.rightPumpType === 'Unspecified' || keep(form.batch2Number, form.rightPumpType);
  return left && right
    ? form
    : { ...form, batchNumber: left ? form.batchNumber : '', batch2Number: right ? form.batch2Number : '' };
});

// Address: typing leaves no coordinate from a suggestion; a chosen suggestion sets address and location
// together. A coordinate set by hand (a pin, typed numbers) stays while the address is typed: that is how a
// street address the town-level suggestions do not know ('6500 Magazine St') gets its real place (issue 42).
$form
  .on(
    sample({ clock: addressTyped, source: $locatedByHand, fn: (byHand, address) => ({ byHand, address }) }),
    (form, { byHand, address }) => ({
      ...form,
      address,
      location: byHand ? form.location : null,
    }),
  )
  .on(suggestionChosen, (form, s) => ({ ...form, address: s.description, location: s.location }));
const $lookingUp = combine($form, $locatedByHand, (form, byHand) => form.location === null || byHand);
sample({ clock: addressTyped, filter: (text) => text.trim().length >= SUGGEST_MIN_CHARS, target: suggestDelayFx });
sample({
  clock: suggestDelayFx.doneData,
  source: { form: $form, lookingUp: $lookingUp },
  filter: ({ form, lookingUp }, typed) => form.address === typed && lookingUp,
  fn: (_, typed) => typed.trim(),
  target: fetchSuggestionsFx,
});
// Only the answer for what the field says now lands.
const suggestionsLoaded = sample({
  clock: fetchSuggestionsFx.done,
  source: { form: $form, lookingUp: $lookingUp },
  filter: ({ form, lookingUp }, { params }) => form.address.trim() === params && lookingUp,
  fn: (_, { result }) => result,
});

// ---------------------------------------------------------------- placing by hand (issue 42)

const locatedByHand = createEvent<LatLngPoint>();
$form.on(locatedByHand, (form, location) => ({ ...form, location }));
$locatedByHand
  .on(locatedByHand, () => true)
  .reset(suggestionChosen, addOpened, editOpened, deviceFormClosed, formFinished, sessionEnded);

// The map: the form steps aside, the pin goes where it is dropped or dragged; Cancel puts it back.
sample({
  clock: placeOnMapClicked,
  source: { mode: $mode, placing: $placingOnMap },
  filter: ({ mode, placing }) => mode !== 'closed' && !placing,
  fn: () => true,
  target: $placingOnMap,
});
const placingStarted = sample({
  clock: placeOnMapClicked,
  source: { form: $form, placing: $placingOnMap },
  filter: ({ placing }) => placing,
  fn: ({ form }) => form.location,
});
sample({ clock: placingStarted, fn: (location) => ({ location }), target: $locationBeforePlacing });
sample({ clock: placingStarted, target: placeOnMapRequested });
// A pin already placed keeps its name on the map.
sample({
  clock: placingStarted,
  source: $pinName,
  filter: (name, location) => location !== null && name.text !== null,
  fn: (name) => name.text,
  target: pinNamed,
});
sample({ clock: pinPlacedOnMap, filter: $placingOnMap, target: locatedByHand });
const placingCancelled = sample({
  clock: placingOnMapEnded,
  source: $locationBeforePlacing,
  filter: (before, how) => before !== null && how === 'cancelled',
  fn: (before) => before!.location,
});
const placingDone = sample({
  clock: placingOnMapEnded,
  source: $locationBeforePlacing,
  filter: (before, how) => before !== null && how === 'done',
});
$form.on(placingCancelled, (form, location) => ({ ...form, location }));
$placingOnMap.reset(placingCancelled, placingDone, addOpened, editOpened, deviceFormClosed, formFinished, sessionEnded);
$locationBeforePlacing.reset(placingCancelled, placingDone, addOpened, editOpened, deviceFormClosed, formFinished, sessionEnded);

// Typed coordinates: the pair is read once typing pauses, when both are numbers in range.
$coordinateText.on(coordinateTyped, (typed, { axis, value }) => ({ ...typed, [axis]: value }));
sample({ clock: coordinateTyped, source: $coordinateText, target: coordinateDelayFx });
sample({
  clock: coordinateDelayFx.doneData,
  source: $coordinateText,
  filter: (now, typed) => now.lat === typed.lat && now.lng === typed.lng && parseCoordinates(typed) !== null,
  fn: (_, typed) => parseCoordinates(typed)!,
  target: locatedByHand,
});
// Every other way the coordinate changes shows in the fields.
$coordinateText
  .on(deviceLoaded, (_, form) => coordinateText(form.location))
  .on(suggestionChosen, (_, s) => coordinateText(s.location))
  .on(pinPlacedOnMap, (typed, point) => coordinateText(point))
  .on(placingCancelled, (_, location) => coordinateText(location))
  .reset(addOpened, editOpened, deviceFormClosed, formFinished, sessionEnded);

// The pin is named by the nearest town (the gazetteer); only the answer for where it is now lands.
const locationChanged = sample({
  clock: $form.map((form) => form.location),
  filter: (location): location is LatLngPoint => location !== null,
});
sample({ clock: locationChanged, target: fetchNearestPlaceFx });
const pinNameLoaded = sample({
  clock: fetchNearestPlaceFx.done,
  source: $form,
  filter: (form, { params }) => form.location?.lat === params.lat && form.location?.lng === params.lng,
  fn: (_, { result }): PinName => ({
    status: 'ready',
    text: result ? nearestPlaceText(result) : null,
    town: result ? `${result.name}, ${result.state}` : null,
  }),
});
$pinName
  .on(fetchNearestPlaceFx, (name) => ({ ...name, status: 'loading' }))
  .on(pinNameLoaded, (_, name) => name)
  .on(fetchNearestPlaceFx.fail, (name) => ({ ...name, status: 'failed' }))
  .on(
    $form.map((form) => form.location),
    (name, location) => (location ? name : { status: 'idle', text: null, town: null }),
  )
  .reset(addOpened, editOpened, deviceFormClosed, formFinished, sessionEnded);
sample({ clock: pinNameLoaded, fn: (name) => name.text, target: pinNamed });
// A pin placed with no address yet gets the town's name to start from (the person can still type the street).
$form.on(
  sample({
    clock: pinNameLoaded,
    source: $locatedByHand,
    filter: (byHand, name) => byHand && name.town !== null,
    fn: (_, name) => name.town!,
  }),
  (form, town) => (form.address.trim() === '' ? { ...form, address: town } : form),
);
$suggestions
  .on(suggestionsLoaded, (_, list) => list)
  .on(addressTyped, (list, text) => (text.trim().length < SUGGEST_MIN_CHARS ? [] : list));
$suggestStatus
  .on(fetchSuggestionsFx, () => 'loading')
  .on(suggestionsLoaded, () => 'ready')
  .on(fetchSuggestionsFx.fail, () => 'failed')
  .on(addressTyped, (status, text) => (text.trim().length < SUGGEST_MIN_CHARS ? 'idle' : status));

// A field's message goes as soon as that field is edited; the next save checks everything again.
const clearError = (field: keyof DeviceFormValues) => (errors: FieldErrors) => {
  if (!(field in errors)) return errors;
  const { [field]: _gone, ...rest } = errors;
  return rest;
};
$errors
  .on(fieldChanged, (errors, { field }) => clearError(field)(errors))
  .on(serialChosen, clearError('serialNumber'))
  .on([addressTyped, suggestionChosen, locatedByHand], clearError('address'))
  .on(pumpTypeChanged, (errors, { pump }) => clearError(pump === 'left' ? 'batchNumber' : 'batch2Number')(errors));

// ---------------------------------------------------------------- saving

const checkFormFx = createEffect(checkForm);
const preloadSchemasFx = createEffect(() => loadDeviceSchemas().then(() => undefined));
sample({ clock: [addOpened, editOpened], fn: () => undefined, target: preloadSchemasFx });
sample({
  clock: formSubmitted,
  source: { form: $form, mode: $mode, saving: $saving, status: $deviceStatus, checking: checkFormFx.pending },
  filter: ({ mode, saving, status, checking }) =>
    !saving && !checking && (mode === 'add' || (mode === 'edit' && status === 'ready')),
  fn: ({ form }) => form,
  target: checkFormFx,
});
const checked = checkFormFx.doneData;
// The schemas could not be downloaded (offline): the save is answered like any failed save.
sample({
  clock: checkFormFx.fail,
  source: $mode,
  fn: (mode) => ({
    tone: 'danger' as const,
    title: mode === 'edit' ? RESULT_TEXT.editFailed : RESULT_TEXT.addFailed,
    message: GENERIC_FAILURE,
  }),
  target: resultShown,
});
// When the lookup found no place for what was typed, the coordinate's message says what to do instead of
// pointing at an empty list (issue 42, docs/decisions/pin-instead-of-dropdown.md).
$errors.on(
  sample({
    clock: checked,
    source: { status: $suggestStatus, suggestions: $suggestions },
    fn: (list, result) => ({ result, noFit: list.status === 'ready' && list.suggestions.length === 0 }),
  }),
  (_, { result, noFit }) =>
    result.ok
      ? {}
      : noFit && result.errors.address === SELECT_FROM_DROPDOWN
        ? { ...result.errors, address: NO_SUGGESTION_FITS }
        : result.errors,
);
sample({
  clock: checked,
  source: $mode,
  filter: (mode, result) => mode === 'add' && result.ok,
  fn: (_, result) => (result as Extract<Checked, { ok: true }>).input,
  target: addDeviceFx,
});
sample({
  clock: checked,
  source: { mode: $mode, serial: $editSerial },
  filter: ({ mode, serial }, result) => mode === 'edit' && serial !== null && result.ok,
  fn: ({ serial }, result) => ({ serial: serial!, input: (result as Extract<Checked, { ok: true }>).input }),
  target: editDeviceFx,
});

// A 400 names its fields: they show under the inputs like the client's own messages.
const fieldFailure = (error: Error): FieldErrors =>
  error instanceof HttpError && error.status === 400 && error.body && typeof error.body === 'object'
    ? formErrorsOf(error.body as Record<string, unknown>)
    : {};
$errors.on([addDeviceFx.failData, editDeviceFx.failData], (errors, error) => ({ ...errors, ...fieldFailure(error) }));

sample({ clock: [addDeviceFx.doneData, editDeviceFx.doneData], target: deviceSaved });
sample({ clock: deleteDeviceFx.doneData, target: deviceDeleted });
// The device shows on the map and in its county at once; a site in a county new to the portal brings its outline.
sample({
  clock: [deviceSaved, deviceDeleted],
  fn: () => undefined,
  target: [formFinished, devicesRequested, overviewRequested, countiesRequested],
});

sample({
  clock: addDeviceFx.doneData,
  fn: (d) => ({ tone: 'success' as const, title: RESULT_TEXT.added, message: `S/N ${d.serial} is on the map at ${d.address}.` }),
  target: resultShown,
});
sample({
  clock: editDeviceFx.doneData,
  fn: (d) => ({ tone: 'success' as const, title: RESULT_TEXT.edited, message: `${d.label || d.serial} at ${d.address}.` }),
  target: resultShown,
});
sample({
  clock: addDeviceFx.failData,
  fn: (e) => ({ tone: 'danger' as const, title: RESULT_TEXT.addFailed, message: serverReason(e) ?? GENERIC_FAILURE }),
  target: resultShown,
});
sample({
  clock: editDeviceFx.failData,
  fn: (e) => ({ tone: 'danger' as const, title: RESULT_TEXT.editFailed, message: serverReason(e) ?? GENERIC_FAILURE }),
  target: resultShown,
});

// Delete (edit only), after the confirmation.
sample({
  clock: deleteConfirmed,
  source: { asked: $confirmingDelete, mode: $mode, serial: $editSerial, saving: $saving },
  filter: ({ asked, mode, serial, saving }) => asked && mode === 'edit' && serial !== null && !saving,
  fn: ({ serial }) => serial!,
  target: deleteDeviceFx,
});
sample({
  clock: deleteDeviceFx.done,
  fn: () => ({ tone: 'success' as const, title: RESULT_TEXT.deleted, message: null }),
  target: resultShown,
});
// The title already says 'Something went wrong': a message only when the server said more.
sample({
  clock: deleteDeviceFx.failData,
  fn: (e) => ({ tone: 'danger' as const, title: RESULT_TEXT.deleteFailed, message: serverReason(e) }),
  target: resultShown,
});
