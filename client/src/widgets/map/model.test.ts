import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $devicePins, deviceSelected } from '../../entities/device';
import { fakeDevice, pinsOf } from '../../entities/device/lib/fake-device';
import { pinTypeToggled } from '../../features/active-pin-filter';
import { collectionOfBuild, createPinsBuilder, rowsOf } from './lib/pins';
import {
  $labelsVisible,
  $pinnedDevices,
  $pins,
  $placing,
  $viewRequest,
  buildPinsFx,
  devicePinClicked,
  mapMoved,
  mapReset,
  pinPlacingStarted,
  placingCentreChosen,
  placingFinished,
  placingPinLabelled,
  placingPinMoved,
  pinsBytesGone,
  siteViewSettled,
  siteViewWaitFx,
  fetchSiteNamesFx,
  $siteNames,
  $zoom,
  type SiteView,
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

  it('builds the pins off the page thread (buildPinsFx), keeping only the answer for the latest pins', async () => {
    const builds: string[][] = [];
    let finishFirst!: () => void;
    const scope = fork({
      handlers: [
        [
          buildPinsFx,
          async (devices: readonly { serial: string }[]) => {
            builds.push(devices.map((d) => d.serial));
            // The first build is slow: the pins change meanwhile.
            if (builds.length === 1) await new Promise<void>((resolve) => (finishFirst = resolve));
            return createPinsBuilder().build(builds.length, rowsOf(devices as never));
          },
        ],
      ],
    });
    const serials = () => collectionOfBuild(scope.getState($pins)).features.map((f) => f.properties.serial);
    const first = allSettled($devicePins, { scope, params: pinsOf([fakeDevice('A1')]) });
    const second = allSettled($devicePins, { scope, params: pinsOf([fakeDevice('A1'), fakeDevice('C3')]) });
    finishFirst();
    await Promise.all([first, second]);
    // One build at a time; the stale one's answer is dropped and the latest pins built after it.
    expect(builds).toEqual([['A1'], ['A1', 'C3']]);
    expect(serials()).toEqual(['A1', 'C3']);
  });

  it('builds the pins in a task after the pin feed changes, from the latest pins when changes come together', async () => {
    const scope = fork();
    const serials = () => collectionOfBuild(scope.getState($pins)).features.map((f) => f.properties.serial);
    const first = allSettled($devicePins, { scope, params: pinsOf([fakeDevice('A1')]) });
    const second = allSettled($devicePins, { scope, params: pinsOf([fakeDevice('A1'), fakeDevice('C3')]) });
    // The stores took both at once; the map's collection comes a task later.
    expect([...scope.getState($devicePins).keys()]).toEqual(['A1', 'C3']);
    expect(serials()).toEqual([]);
    await Promise.all([first, second]);
    expect(serials()).toEqual(['A1', 'C3']);
  });

  it('builds the latest pins again, whole, when the map asks for bytes it was handed before (pinsBytesGone)', async () => {
    const scope = fork();
    await allSettled($devicePins, { scope, params: pinsOf([fakeDevice('A1'), fakeDevice('C3')]) });
    const first = scope.getState($pins);
    await allSettled(pinsBytesGone, { scope });
    const again = scope.getState($pins);
    expect(again.id).not.toBe(first.id);
    expect(collectionOfBuild(again).features.map((f) => f.properties.serial)).toEqual(['A1', 'C3']);
    // What the map's readout of pinned devices reads: the devices the shown build was made from.
    expect(scope.getState($pinnedDevices).map((d) => d.serial)).toEqual(['A1', 'C3']);
  });

  it('shows labels from zoom 10 and draws only the pins the filter lets through', async () => {
    const scope = fork();
    await allSettled($devicePins, { scope, params: pinsOf([fakeDevice('A1'), fakeDevice('B2', { is_warning: true })]) });
    expect(scope.getState($labelsVisible)).toBe(true);
    await allSettled(mapMoved, { scope, params: { zoom: 9.5, center: { lat: 30, lng: -90 } } });
    expect(scope.getState($labelsVisible)).toBe(false);
    expect(collectionOfBuild(scope.getState($pins)).features.map((f) => f.properties.serial)).toEqual(['A1', 'B2']);
    await allSettled(pinTypeToggled, { scope, params: 'warning' });
    expect(collectionOfBuild(scope.getState($pins)).features.map((f) => f.properties.serial)).toEqual(['A1']);
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

describe('site names for the view', () => {
  const site = (id: number, name: string): Awaited<ReturnType<typeof fetchSiteNamesFx>>[number] => [id, name];
  /** A scope at label zoom whose siteNames answers `answers` in turn, recording each query's bbox. */
  function viewScope(answers: ReturnType<typeof site>[][]) {
    const asked: string[] = [];
    const scope = fork({
      values: [[$zoom, 12]],
      handlers: [
        // The settle wait is a few ms: the test says which views settled, and when.
        [siteViewWaitFx, (view: SiteView) => new Promise<SiteView>((resolve) => setTimeout(() => resolve(view), 5))],
        [
          fetchSiteNamesFx,
          (box: SiteView) => {
            asked.push(`${box.south},${box.west},${box.north},${box.east}`);
            return answers.shift() ?? [];
          },
        ],
      ],
    });
    return { scope, asked };
  }
  const view = { west: -90.2, south: 29.9, east: -90.0, north: 30.0 };

  it('asks once for the settled view with a quarter of it around, and merges the answers', async () => {
    const { scope, asked } = viewScope([[site(1, 'Pier One'), site(2, '2 Levee Rd')], [site(3, 'Dock Three')]]);
    await allSettled(siteViewSettled, { scope, params: view });
    // 0.2 wide and 0.1 high: 0.05 and 0.025 more each way (south,west,north,east).
    expect(asked).toEqual(['29.875,-90.25,30.025,-89.95']);
    // (A site without a name is named by its address on the server: tests/integration/device-page.test.ts.)
    expect(scope.getState($siteNames)).toEqual({ 1: 'Pier One', 2: '2 Levee Rd' });

    // A pan within the margin asks nothing; one beyond it asks for that view, and its names join the others.
    await allSettled(siteViewSettled, { scope, params: { ...view, west: -90.22, east: -90.02 } });
    expect(asked).toHaveLength(1);
    const east = { ...view, west: -89.9, east: -89.7 };
    await allSettled(siteViewSettled, { scope, params: east });
    expect(asked).toEqual(['29.875,-90.25,30.025,-89.95', '29.875,-89.95,30.025,-89.65']);
    expect(scope.getState($siteNames)).toEqual({ 1: 'Pier One', 2: '2 Levee Rd', 3: 'Dock Three' });
    // Panning back reads nothing again.
    await allSettled(siteViewSettled, { scope, params: view });
    expect(asked).toHaveLength(2);
    // Signed out: no name stays, and the view is read anew.
    await allSettled(mapReset, { scope });
    expect(scope.getState($siteNames)).toEqual({});
    await allSettled(siteViewSettled, { scope, params: view });
    expect(asked).toHaveLength(3);
  });

  it('reads only the view the map settled on, and nothing while labels are hidden', async () => {
    const { scope, asked } = viewScope([]);
    // Two moves in a row: the first one's wait ends after the second move, so only the second is read.
    const first = allSettled(siteViewSettled, { scope, params: view });
    const second = allSettled(siteViewSettled, { scope, params: { ...view, north: 30.1 } });
    await Promise.all([first, second]);
    expect(asked).toEqual(['29.85,-90.25,30.15,-89.95']);

    const far = fork({
      values: [[$zoom, 8]],
      handlers: [
        [siteViewWaitFx, (v: SiteView) => v],
        [fetchSiteNamesFx, () => (asked.push('far'), [])],
      ],
    });
    await allSettled(siteViewSettled, { scope: far, params: view });
    expect(asked).not.toContain('far');
    // Zooming in to labels reads the view they show.
    await allSettled(mapMoved, { scope: far, params: { zoom: 12, center: { lat: 29.95, lng: -90.1 } } });
    expect(asked).toContain('far');
  });

  it('reads the view again when a site joins the pins, and after a failed read', async () => {
    const { scope, asked } = viewScope([]);
    await allSettled(siteViewSettled, { scope, params: view });
    await allSettled($devicePins, { scope, params: pinsOf([fakeDevice('A1', { location_group: 77 })]) });
    expect(asked).toHaveLength(2);

    const failing = fork({
      values: [[$zoom, 12]],
      handlers: [
        [siteViewWaitFx, (v: SiteView) => v],
        [
          fetchSiteNamesFx,
          () => {
            asked.push('failed');
            throw new Error('offline');
          },
        ],
      ],
    });
    await allSettled(siteViewSettled, { scope: failing, params: view });
    await allSettled(siteViewSettled, { scope: failing, params: view });
    expect(asked.filter((a) => a === 'failed')).toHaveLength(2);
  });
});
