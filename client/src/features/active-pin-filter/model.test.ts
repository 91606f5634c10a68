import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $devicePins, fetchDevicePinsFx } from '../../entities/device';
import { fakeDevice, pinsOf } from '../../entities/device/lib/fake-device';
import { $enabledPinTypes, $pinCountsKnown, $pinTypeCounts, $visibleDevices, pinTypeToggled } from './model';

const FLEET = pinsOf([
  fakeDevice('S1'),
  fakeDevice('S2', { is_online: false }),
  fakeDevice('S3', { is_pause: true }),
  fakeDevice('S4', { is_pause: true, is_warning: true }),
  fakeDevice('S5', { is_warning: true, warning_lists: ['BATTERY'] }),
  fakeDevice('S6', { location: null }),
]);

const visible = (scope: ReturnType<typeof fork>) => scope.getState($visibleDevices).map((d) => d.serial);

describe('active-pin filter model', () => {
  it('shows every placed device while all types are on, and counts each type', () => {
    const scope = fork({ values: [[$devicePins, FLEET]] });
    expect(visible(scope)).toEqual(['S1', 'S2', 'S3', 'S4', 'S5']);
    // A paused device counts as pause even with a warning: the pin shows it paused.
    expect(scope.getState($pinTypeCounts)).toEqual({ regular: 2, pause: 2, warning: 1 });
  });

  it('counts nothing until the pin feed has answered once: a failed first read is not an empty fleet', async () => {
    const failing = fork({ handlers: [[fetchDevicePinsFx, async () => Promise.reject(new Error('offline'))]] });
    expect(failing.getState($pinCountsKnown)).toBe(false);
    await allSettled(fetchDevicePinsFx, { scope: failing });
    expect(failing.getState($pinCountsKnown)).toBe(false);
    const answering = fork({ handlers: [[fetchDevicePinsFx, async () => new Map()]] });
    await allSettled(fetchDevicePinsFx, { scope: answering });
    expect(answering.getState($pinCountsKnown)).toBe(true);
  });

  it('hides the pins of a switched-off type and brings them back', async () => {
    const scope = fork({ values: [[$devicePins, FLEET]] });
    await allSettled(pinTypeToggled, { scope, params: 'pause' });
    expect(scope.getState($enabledPinTypes)).toEqual({ regular: true, pause: false, warning: true });
    expect(visible(scope)).toEqual(['S1', 'S2', 'S5']);

    await allSettled(pinTypeToggled, { scope, params: 'warning' });
    expect(visible(scope)).toEqual(['S1', 'S2']);
    await allSettled(pinTypeToggled, { scope, params: 'regular' });
    expect(visible(scope)).toEqual([]);

    await allSettled(pinTypeToggled, { scope, params: 'pause' });
    expect(visible(scope)).toEqual(['S3', 'S4']);
  });

  it('follows a device whose type changes while its type is hidden', async () => {
    const scope = fork({ values: [[$devicePins, FLEET]] });
    await allSettled(pinTypeToggled, { scope, params: 'pause' });
    await allSettled($devicePins, { scope, params: new Map(FLEET).set('S3', { ...FLEET.get('S3')!, is_pause: false }) });
    expect(visible(scope)).toContain('S3');
  });
});
