import type { BatchAnswer, CurrentUser, DeviceAnswer, DeviceFormInput } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fetchCountiesFx } from '../../entities/county';
import { fetchDevicePinsFx } from '../../entities/device';
import { fakeDevice } from '../../entities/device/lib/fake-device';
import { fetchOverviewFx } from '../../entities/overview';
import { $user, sessionEnded } from '../../entities/session';
import { HttpError } from '../../shared/api';
import {
  $availableStatus,
  $batchChoices,
  $errors,
  $form,
  $leftBatches,
  $mode,
  $result,
  $rightBatches,
  $suggestions,
  addDeviceFx,
  addDeviceOpened,
  addressTyped,
  deleteConfirmed,
  deleteDeviceFx,
  deleteRequested,
  deviceDeleted,
  deviceSaved,
  editDeviceFx,
  editDeviceOpened,
  fetchAvailableFx,
  fetchBatchesFx,
  fetchBrandsFx,
  fetchDeviceFx,
  fetchSuggestionsFx,
  fieldChanged,
  formSubmitted,
  pumpTypeChanged,
  resultTimerFx,
  serialChosen,
  suggestDelayFx,
  suggestionChosen,
  type PlaceSuggestion,
  $coordinateText,
  $locatedByHand,
  $pinName,
  $placingOnMap,
  coordinateDelayFx,
  coordinateTyped,
  fetchNearestPlaceFx,
  NO_SUGGESTION_FITS,
  parseCoordinates,
  placeOnMapClicked,
  type CoordinateText,
} from './model';
import { pinNamed, pinPlacedOnMap, placeOnMapRequested, placingOnMapEnded } from './entry';

const user = (access: CurrentUser['access']) =>
  ({
    id: 1,
    email: `${access}@demo.test`,
    role: access === 'client' ? 'client' : 'distributor',
    user_type: access,
    access,
  }) as unknown as CurrentUser;

const batch = (id: number, batchType: number, status: BatchAnswer['status'], is_recalled = false) =>
  ({
    id,
    batchType,
    batch_type: batchType,
    batch_no: `B${id}`,
    batchNumber: `B${id}`,
    expire_date: '2030-01-01',
    status,
    is_recalled,
  }) as BatchAnswer;

const BATCHES: Record<number, BatchAnswer[]> = {
  1: [batch(11, 1, 'IN_USE'), batch(12, 1, 'EXPIRED'), batch(13, 1, 'ALMOST_EXPIRED'), batch(14, 1, 'NOT_IN_USE', true)],
  2: [batch(21, 2, 'NOT_IN_USE'), batch(22, 2, 'EXPIRED')],
};
const NEW_ORLEANS = { name: 'New Orleans', county: 'Orleans Parish', state: 'LA', lat: 29.95, lng: -90.07, distanceKm: 5.2 };
const BATON_ROUGE: PlaceSuggestion = {
  place_id: 'gz:1',
  description: 'Baton Rouge, LA, USA',
  location: { lat: 30.45, lng: -91.15 },
};

const placed = (serial: string, fields: Partial<DeviceAnswer> = {}) =>
  ({
    ...fakeDevice(serial),
    label: 'Pier 1',
    brand: 3,
    number: 4,
    address: 'Metairie, LA, USA',
    location: { lat: 29.98, lng: -90.15 },
    location_event_type: 'EVENT',
    left_pump_type: 'Sunscreen',
    right_pump_type: 'Sanitizer',
    batch: 11,
    batch2Id: 21,
    simcardPhoneNumber: null,
    imei: '350000000000001',
    simSerialNumber: null,
    ...fields,
  }) as unknown as DeviceAnswer;

/**
 * A distributor's scope whose calls are recorded and answered from memory. Typing pauses at once; the
 * result popup's timer ends for another popup (-1), so a popup stays for the test to read unless
 * `closeResults` lets timers end for the popup they were started for.
 */
function setup(
  options: {
    access?: CurrentUser['access'];
    add?: (input: DeviceFormInput) => Promise<DeviceAnswer>;
    remove?: (serial: string) => Promise<string>;
    closeResults?: boolean;
  } = {},
) {
  const calls: string[] = [];
  const sent: unknown[] = [];
  const scope = fork({
    values: [[$user, user(options.access ?? 'distributor')]],
    handlers: [
      [
        fetchAvailableFx,
        async () => (
          calls.push('available'),
          [{ serial: 'SP260001', left_pump_type: 'Sunscreen', right_pump_type: 'Sanitizer', core_ver: '1.1.2' }]
        ),
      ],
      [fetchBrandsFx, async () => (calls.push('brands'), [{ id: 3, name: 'SunStop' }])],
      [fetchBatchesFx, async (code: number) => (calls.push(`batches:${code}`), BATCHES[code] ?? [])],
      [fetchDeviceFx, async (serial: string) => (calls.push(`device:${serial}`), placed(serial))],
      [
        fetchSuggestionsFx,
        async (input: string) => (calls.push(`places:${input}`), input.startsWith('Baton') ? [BATON_ROUGE] : []),
      ],
      [suggestDelayFx, async (input: string) => input],
      [coordinateDelayFx, async (typed: CoordinateText) => typed],
      [
        fetchNearestPlaceFx,
        async (point: { lat: number; lng: number }) => (
          calls.push(`nearest:${point.lat},${point.lng}`),
          point.lat > 0 ? NEW_ORLEANS : null
        ),
      ],
      [resultTimerFx, async (seq: number) => (options.closeResults ? seq : -1)],
      [
        addDeviceFx,
        options.add ??
          (async (input: DeviceFormInput) => (sent.push(input), placed(input.serialNumber, { address: input.address }))),
      ],
      [
        editDeviceFx,
        async ({ serial, input }: { serial: string; input: DeviceFormInput }) => (
          sent.push({ serial, ...input }),
          placed(serial, { label: input.deviceName })
        ),
      ],
      [deleteDeviceFx, options.remove ?? (async (serial: string) => (calls.push(`delete:${serial}`), serial))],
      // A write re-reads the map's pins (the full list only where a view had read it).
      [fetchDevicePinsFx, async () => (calls.push('devices'), new Map())],
      [fetchOverviewFx, async () => (calls.push('overview'), {})],
      [fetchCountiesFx, async () => (calls.push('counties'), [])],
    ],
  });
  return { scope, calls, sent };
}

type Scope = ReturnType<typeof fork>;
async function fillValidAdd(scope: Scope) {
  await allSettled(serialChosen, { scope, params: 'SP260001' });
  await allSettled(fieldChanged, { scope, params: { field: 'deviceName', value: 'Beach Hut' } });
  await allSettled(fieldChanged, { scope, params: { field: 'brandId', value: '3' } });
  await allSettled(fieldChanged, { scope, params: { field: 'deviceNumber', value: '7' } });
  await allSettled(fieldChanged, { scope, params: { field: 'batchNumber', value: '11' } });
  await allSettled(fieldChanged, { scope, params: { field: 'batch2Number', value: '21' } });
  await allSettled(addressTyped, { scope, params: 'Baton Rouge' });
  await allSettled(suggestionChosen, { scope, params: scope.getState($suggestions)[0]! });
}

describe('device form model', () => {
  it('shows the spec messages under each field when an empty add form is saved, and sends nothing', async () => {
    const { scope, sent } = setup();
    await allSettled(addDeviceOpened, { scope });
    expect(scope.getState($mode)).toBe('add');
    await allSettled(formSubmitted, { scope });
    expect(scope.getState($errors)).toMatchObject({
      serialNumber: 'Please select the serial number in the list above',
      deviceName: 'Required',
      brandId: 'Required',
      deviceNumber: 'Required',
      batchNumber: 'Required',
      address: 'Required',
    });
    expect(sent).toEqual([]);

    // A typed address without a chosen suggestion has no coordinate; when nothing fits, the message says
    // to place the pin instead (issue 42's departure from 'Please Select Address From DropDown').
    await allSettled(addressTyped, { scope, params: 'Somewhere without a match' });
    expect(scope.getState($errors).address).toBeUndefined();
    await allSettled(formSubmitted, { scope });
    expect(scope.getState($errors).address).toBe(NO_SUGGESTION_FITS);
    // Editing a field clears its message only.
    await allSettled(fieldChanged, { scope, params: { field: 'deviceName', value: 'x' } });
    expect(scope.getState($errors).deviceName).toBeUndefined();
    expect(scope.getState($errors).brandId).toBe('Required');
  });

  it('requires the right batch only when the right pump holds a fluid', async () => {
    const { scope } = setup();
    await allSettled(addDeviceOpened, { scope });
    // Shown with the other messages at once, not only after they are fixed.
    await allSettled(pumpTypeChanged, { scope, params: { pump: 'right', type: 'Sanitizer' } });
    await allSettled(formSubmitted, { scope });
    expect(scope.getState($errors)).toMatchObject({ deviceName: 'Required', batchNumber: 'Required', batch2Number: 'Required' });
    await fillValidAdd(scope);
    await allSettled(pumpTypeChanged, { scope, params: { pump: 'right', type: 'Sunscreen' } });
    // A new fluid drops the batch chosen for the old one.
    expect(scope.getState($form).batch2Number).toBe('');
    await allSettled(formSubmitted, { scope });
    expect(scope.getState($errors)).toEqual({ batch2Number: 'Required' });

    await allSettled(pumpTypeChanged, { scope, params: { pump: 'right', type: 'Unspecified' } });
    await allSettled(formSubmitted, { scope });
    expect(scope.getState($errors)).toEqual({});
  });

  it('offers no EXPIRED (or recalled) batch, per pump fluid', async () => {
    const { scope, calls } = setup();
    await allSettled(addDeviceOpened, { scope });
    expect(calls).toContain('batches:1');
    await allSettled(serialChosen, { scope, params: 'SP260001' });
    expect(calls).toContain('batches:2');
    expect(scope.getState($leftBatches).map((b) => b.id)).toEqual([11, 13]);
    expect(scope.getState($rightBatches).map((b) => b.id)).toEqual([21]);
    expect(
      Object.values(scope.getState($batchChoices))
        .flat()
        .some((b) => b.status === 'EXPIRED'),
    ).toBe(false);
  });

  it('adds: sends the checked form, shows DEVICE ADDED, closes, and re-reads the devices and the overview', async () => {
    const { scope, calls, sent } = setup();
    const saved: string[] = [];
    const unwatch = deviceSaved.watch((d) => saved.push(d.serial));
    await allSettled(addDeviceOpened, { scope });
    expect(calls).toEqual(expect.arrayContaining(['brands', 'available', 'batches:1']));
    expect(scope.getState($availableStatus)).toBe('ready');
    await fillValidAdd(scope);
    expect(scope.getState($form)).toMatchObject({
      leftPumpType: 'Sunscreen',
      rightPumpType: 'Sanitizer',
      address: 'Baton Rouge, LA, USA',
      location: { lat: 30.45, lng: -91.15 },
    });

    calls.length = 0;
    await allSettled(formSubmitted, { scope });
    expect(sent).toEqual([
      expect.objectContaining({
        serialNumber: 'SP260001',
        deviceName: 'Beach Hut',
        brandId: 3,
        deviceNumber: 7,
        batchNumber: 11,
        batch2Number: 21,
        address: 'Baton Rouge, LA, USA',
        location: { lat: 30.45, lng: -91.15 },
        leftPumpType: 'Sunscreen',
        rightPumpType: 'Sanitizer',
        locationEventType: 'SITE',
      }),
    ]);
    expect(calls).toEqual(expect.arrayContaining(['devices', 'overview', 'counties']));
    expect(scope.getState($mode)).toBe('closed');
    expect(scope.getState($result)).toMatchObject({ tone: 'success', title: 'DEVICE ADDED' });
    expect(saved).toEqual(['SP260001']);
    unwatch();
  });

  it('a failed add shows FAIL TO ADD DEVICE with the server message and its field errors; the form stays open', async () => {
    const { scope, calls } = setup({
      add: async () => {
        throw new HttpError(400, { deviceNumber: ['Number 7 is already used at this site (S/N SP1).'] });
      },
    });
    await allSettled(addDeviceOpened, { scope });
    await fillValidAdd(scope);
    calls.length = 0;
    await allSettled(formSubmitted, { scope });
    expect(scope.getState($result)).toMatchObject({
      tone: 'danger',
      title: 'FAIL TO ADD DEVICE',
      message: 'Number 7 is already used at this site (S/N SP1).',
    });
    expect(scope.getState($errors).deviceNumber).toBe('Number 7 is already used at this site (S/N SP1).');
    expect(scope.getState($mode)).toBe('add');
    expect(calls).not.toContain('devices');
  });

  it('edits with the current values; delete asks first, then refreshes and says Device has been deleted', async () => {
    const { scope, calls, sent } = setup();
    const deleted: string[] = [];
    const unwatch = deviceDeleted.watch((s) => deleted.push(s));
    await allSettled(editDeviceOpened, { scope, params: 'A1' });
    expect(calls).toContain('device:A1');
    expect(scope.getState($form)).toMatchObject({
      serialNumber: 'A1',
      deviceName: 'Pier 1',
      brandId: '3',
      deviceNumber: '4',
      batchNumber: '11',
      batch2Number: '21',
      locationEventType: 'EVENT',
      imei: '350000000000001',
    });
    await allSettled(fieldChanged, { scope, params: { field: 'deviceName', value: 'Pier 2' } });
    await allSettled(formSubmitted, { scope });
    expect(sent).toEqual([
      expect.objectContaining({ serial: 'A1', serialNumber: 'A1', deviceName: 'Pier 2', location: { lat: 29.98, lng: -90.15 } }),
    ]);
    expect(scope.getState($mode)).toBe('closed');

    await allSettled(editDeviceOpened, { scope, params: 'A1' });
    calls.length = 0;
    await allSettled(deleteConfirmed, { scope });
    expect(calls).toEqual([]); // nothing without the question first
    await allSettled(deleteRequested, { scope });
    await allSettled(deleteConfirmed, { scope });
    expect(calls).toEqual(expect.arrayContaining(['delete:A1', 'devices', 'overview']));
    expect(scope.getState($result)).toMatchObject({ tone: 'success', title: 'Device has been deleted' });
    expect(deleted).toEqual(['A1']);
    unwatch();
    expect(scope.getState($mode)).toBe('closed');
  });

  it('a failed delete says Something went wrong and keeps the form', async () => {
    const { scope, calls } = setup({
      remove: async () => {
        throw new HttpError(500, undefined);
      },
    });
    await allSettled(editDeviceOpened, { scope, params: 'A1' });
    await allSettled(deleteRequested, { scope });
    calls.length = 0;
    await allSettled(deleteConfirmed, { scope });
    expect(scope.getState($result)).toMatchObject({ tone: 'danger', title: 'Something went wrong' });
    expect(scope.getState($mode)).toBe('edit');
    expect(calls).not.toContain('devices');
  });

  it('the result popup closes itself when its timer ends', async () => {
    const { scope } = setup({ closeResults: true });
    await allSettled(addDeviceOpened, { scope });
    await fillValidAdd(scope);
    await allSettled(formSubmitted, { scope });
    expect(scope.getState($mode)).toBe('closed');
    expect(scope.getState($result)).toBeNull();
  });

  it('asks for suggestions with what was typed and keeps only the answer for the text shown', async () => {
    const { scope, calls } = setup();
    await allSettled(addDeviceOpened, { scope });
    await allSettled(addressTyped, { scope, params: 'B' });
    expect(calls.filter((c) => c.startsWith('places:'))).toEqual([]);
    await allSettled(addressTyped, { scope, params: 'Baton Rouge ' });
    expect(calls).toContain('places:Baton Rouge');
    expect(scope.getState($suggestions)).toEqual([BATON_ROUGE]);
    await allSettled(suggestionChosen, { scope, params: BATON_ROUGE });
    expect(scope.getState($suggestions)).toEqual([]);
    // Typing again drops the coordinate: only a chosen place has one.
    await allSettled(addressTyped, { scope, params: 'Baton Rouge, LA, USA!' });
    expect(scope.getState($form).location).toBeNull();
  });

  it('opens for distributors only, and forgets everything when the session ends', async () => {
    const client = setup({ access: 'client' });
    await allSettled(addDeviceOpened, { scope: client.scope });
    await allSettled(editDeviceOpened, { scope: client.scope, params: 'A1' });
    expect(client.scope.getState($mode)).toBe('closed');
    expect(client.calls).toEqual([]);
    const partner = setup({ access: 'market-partner' });
    await allSettled(editDeviceOpened, { scope: partner.scope, params: 'A1' });
    expect(partner.scope.getState($mode)).toBe('closed');

    const { scope } = setup();
    await allSettled(editDeviceOpened, { scope, params: 'A1' });
    await allSettled(sessionEnded, { scope, params: 'logout' });
    expect(scope.getState($mode)).toBe('closed');
    expect(scope.getState($form).serialNumber).toBe('');
  });
});

describe('placing the device by hand (issue 42)', () => {
  const MAGAZINE_ST = { lat: 29.9213, lng: -90.1036 };

  it('a street address no suggestion knows: the pin dropped on the map saves the device there, named by the nearest town', async () => {
    const { scope, sent, calls } = setup();
    const asked: unknown[] = [];
    const named: (string | null)[] = [];
    placeOnMapRequested.watch((at) => asked.push(at));
    pinNamed.watch((name) => named.push(name));
    await allSettled(addDeviceOpened, { scope });
    await fillValidAdd(scope);
    await allSettled(addressTyped, { scope, params: '6500 Magazine St New Orleans' });
    expect(scope.getState($suggestions)).toEqual([]);
    await allSettled(formSubmitted, { scope });
    expect(scope.getState($errors).address).toBe(NO_SUGGESTION_FITS);

    await allSettled(placeOnMapClicked, { scope });
    expect(scope.getState($placingOnMap)).toBe(true);
    expect(asked.at(-1)).toBeNull();
    await allSettled(pinPlacedOnMap, { scope, params: MAGAZINE_ST });
    expect(scope.getState($form).location).toEqual(MAGAZINE_ST);
    expect(scope.getState($coordinateText)).toEqual({ lat: '29.921300', lng: '-90.103600' });
    expect(scope.getState($errors).address).toBeUndefined();
    expect(calls).toContain('nearest:29.9213,-90.1036');
    expect(scope.getState($pinName)).toEqual({
      status: 'ready',
      text: 'New Orleans, LA · Orleans Parish · 5.2 km',
      town: 'New Orleans, LA',
    });
    expect(named.at(-1)).toBe('New Orleans, LA · Orleans Parish · 5.2 km');
    // The typed street stays (only an empty address takes the town's name), and typing more keeps the pin.
    expect(scope.getState($form).address).toBe('6500 Magazine St New Orleans');
    await allSettled(addressTyped, { scope, params: '6500 Magazine St, New Orleans' });
    expect(scope.getState($form).location).toEqual(MAGAZINE_ST);
    expect(scope.getState($locatedByHand)).toBe(true);
    await allSettled(placingOnMapEnded, { scope, params: 'done' });
    expect(scope.getState($placingOnMap)).toBe(false);

    await allSettled(formSubmitted, { scope });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ address: '6500 Magazine St, New Orleans', location: MAGAZINE_ST });
  });

  it('Cancel puts the pin back where it was; a chosen suggestion replaces a pin set by hand', async () => {
    const { scope } = setup();
    await allSettled(addDeviceOpened, { scope });
    await allSettled(addressTyped, { scope, params: 'Baton Rouge' });
    await allSettled(suggestionChosen, { scope, params: BATON_ROUGE });
    const named: (string | null)[] = [];
    pinNamed.watch((name) => named.push(name));
    await allSettled(placeOnMapClicked, { scope });
    // The pin already placed keeps its name on the map.
    expect(named.at(-1)).toBe('New Orleans, LA · Orleans Parish · 5.2 km');
    await allSettled(pinPlacedOnMap, { scope, params: MAGAZINE_ST });
    expect(scope.getState($form).location).toEqual(MAGAZINE_ST);
    await allSettled(placingOnMapEnded, { scope, params: 'cancelled' });
    expect(scope.getState($form).location).toEqual(BATON_ROUGE.location);
    expect(scope.getState($coordinateText)).toEqual({ lat: '30.450000', lng: '-91.150000' });
    // Without placing, the map's pins are not taken.
    await allSettled(pinPlacedOnMap, { scope, params: MAGAZINE_ST });
    expect(scope.getState($form).location).toEqual(BATON_ROUGE.location);
  });

  it('typed coordinates place the pin once both are numbers in range; an empty address takes the town', async () => {
    const { scope } = setup();
    await allSettled(addDeviceOpened, { scope });
    await allSettled(coordinateTyped, { scope, params: { axis: 'lat', value: '29.9213' } });
    expect(scope.getState($form).location).toBeNull();
    await allSettled(coordinateTyped, { scope, params: { axis: 'lng', value: '-190' } });
    expect(scope.getState($form).location).toBeNull();
    await allSettled(coordinateTyped, { scope, params: { axis: 'lng', value: '-90,1036' } });
    expect(scope.getState($form).location).toEqual(MAGAZINE_ST);
    expect(scope.getState($form).address).toBe('New Orleans, LA');
    // A pin far from any town: placed, not named.
    await allSettled(coordinateTyped, { scope, params: { axis: 'lat', value: '-10' } });
    expect(scope.getState($pinName)).toEqual({ status: 'ready', text: null, town: null });
    expect(parseCoordinates({ lat: '91', lng: '0' })).toBeNull();
    expect(parseCoordinates({ lat: ' -33.8688 ', lng: '+151.2093' })).toEqual({ lat: -33.8688, lng: 151.2093 });
    expect(parseCoordinates({ lat: '1e2', lng: '0' })).toBeNull();
  });
});
