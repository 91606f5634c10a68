import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $devicePins, deviceSelected } from '../../entities/device';
import { fakeDevice, pinsOf } from '../../entities/device/lib/fake-device';
import { pinTypeToggled } from '../../features/active-pin-filter';
import {
  $labelsVisible,
  $pins,
  $placing,
  $viewRequest,
  devicePinClicked,
  mapMoved,
  pinPlacingStarted,
  placingCentreChosen,
  placingFinished,
  placingPinLabelled,
  placingPinMoved,
  zoomInClicked,
  zoomOutClicked,
} from './model';

describe('map model', () => {
  it('steps the zoom by one per click, as commands the provider adds up', async () => {
    const scope = fork();
    await allSettled(zoomInClicked, { scope });
    expect(scope.getState($viewRequest)).toEqual({ zoomBy: 1, seq: 1 });
    await allSettled(zoomOutClicked, { scope });
    await allSettled(zoomOutClicked, { scope });
    expect(scope.getState($viewRequest)).toEqual({ zoomBy: -1, seq: 3 });
  });

  it('centres a selected device at zoom 15', async () => {
    const scope = fork({ values: [[$devicePins, pinsOf([fakeDevice('A1', { location: { lat: 29.95, lng: -90.07 } })])]] });
    await allSettled(devicePinClicked, { scope, params: 'A1' });
    expect(scope.getState($viewRequest)).toEqual({ center: { lat: 29.95, lng: -90.07 }, zoom: 15, seq: 1 });
  });

  it('centres a device selected before the pins held it once its pin arrives, and only while it is selected', async () => {
    const a1 = fakeDevice('A1', { location: { lat: 29.95, lng: -90.07 } });
    const scope = fork();
    await allSettled(deviceSelected, { scope, params: 'A1' });
    expect(scope.getState($viewRequest)).toBeNull();
    await allSettled($devicePins, { scope, params: pinsOf([a1]) });
    expect(scope.getState($viewRequest)).toEqual({ center: { lat: 29.95, lng: -90.07 }, zoom: 15, seq: 1 });
    // Once: a later change of the pins (a push) does not move the map again.
    await allSettled($devicePins, { scope, params: pinsOf([{ ...a1, is_pause: true }]) });
    expect(scope.getState($viewRequest)?.seq).toBe(1);

    // Another device chosen meanwhile: the first one's pin arriving moves nothing.
    const other = fork();
    await allSettled(deviceSelected, { scope: other, params: 'A1' });
    await allSettled(deviceSelected, { scope: other, params: 'B2' });
    await allSettled($devicePins, { scope: other, params: pinsOf([a1]) });
    expect(other.getState($viewRequest)).toBeNull();
  });

  it('builds the pins in a task after the pin feed changes, from the latest pins when changes come together', async () => {
    const scope = fork();
    const serials = () => scope.getState($pins).features.map((f) => f.properties.serial);
    const first = allSettled($devicePins, { scope, params: pinsOf([fakeDevice('A1')]) });
    const second = allSettled($devicePins, { scope, params: pinsOf([fakeDevice('A1'), fakeDevice('C3')]) });
    // The stores took both at once; the map's collection comes a task later.
    expect(Object.keys(scope.getState($devicePins))).toEqual(['A1', 'C3']);
    expect(serials()).toEqual([]);
    await Promise.all([first, second]);
    expect(serials()).toEqual(['A1', 'C3']);
  });

  it('shows labels from zoom 10 and draws only the pins the filter lets through', async () => {
    const scope = fork();
    await allSettled($devicePins, { scope, params: pinsOf([fakeDevice('A1'), fakeDevice('B2', { is_warning: true })]) });
    expect(scope.getState($labelsVisible)).toBe(true);
    await allSettled(mapMoved, { scope, params: { zoom: 9.5, center: { lat: 30, lng: -90 } } });
    expect(scope.getState($labelsVisible)).toBe(false);
    expect(scope.getState($pins).features.map((f) => f.properties.serial)).toEqual(['A1', 'B2']);
    await allSettled(pinTypeToggled, { scope, params: 'warning' });
    expect(scope.getState($pins).features.map((f) => f.properties.serial)).toEqual(['A1']);
  });
});

describe('placing a pin by hand (issue 42)', () => {
  it('shows a pin already placed at street zoom, drops one at the map centre, takes its name, and ends', async () => {
    const scope = fork();
    const moved: { lat: number; lng: number }[] = [];
    placingPinMoved.watch((at) => moved.push(at));
    await allSettled(pinPlacingStarted, { scope, params: { lat: 29.92, lng: -90.1 } });
    expect(scope.getState($viewRequest)).toMatchObject({ center: { lat: 29.92, lng: -90.1 }, zoom: 15 });
    expect(scope.getState($placing)).toEqual({ location: { lat: 29.92, lng: -90.1 }, label: null });
    await allSettled(placingPinLabelled, { scope, params: 'New Orleans, LA' });
    expect(scope.getState($placing)?.label).toBe('New Orleans, LA');
    await allSettled(mapMoved, { scope, params: { zoom: 14, center: { lat: 30, lng: -90 } } });
    await allSettled(placingCentreChosen, { scope });
    expect(moved.at(-1)).toEqual({ lat: 30, lng: -90 });
    expect(scope.getState($placing)).toEqual({ location: { lat: 30, lng: -90 }, label: null });
    await allSettled(placingFinished, { scope, params: 'done' });
    expect(scope.getState($placing)).toBeNull();
    // Not placing: the centre is no pin, and a name for no pin is dropped.
    await allSettled(placingCentreChosen, { scope });
    await allSettled(placingPinLabelled, { scope, params: 'Somewhere' });
    expect(scope.getState($placing)).toBeNull();
  });
});
