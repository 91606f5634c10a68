import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fakeDevice } from '../../entities/device/lib/fake-device';
import { deviceDeleted, deviceSaved } from '../../features/device-form';
import { subscribeFx, unsubscribeFx } from '../../shared/realtime';
import { $panelDevice, $panelSerial, fetchPanelDeviceFx, panelOpened, type PanelDevice } from './model';

const device = (serial: string, fields: Partial<PanelDevice> = {}) =>
  ({ ...fakeDevice(serial), pending_changes: [], timezone_id: null, ...fields }) as unknown as PanelDevice;

function setup() {
  return fork({
    handlers: [
      [fetchPanelDeviceFx, async (serial: string) => device(serial)],
      [subscribeFx, async () => ({ ok: true, subscribed: [] })],
      [unsubscribeFx, async () => undefined],
    ],
  });
}

describe('device panel and the device forms', () => {
  it('shows what EDIT DEVICE saved for the device shown, and ignores other devices', async () => {
    const scope = setup();
    await allSettled(panelOpened, { scope, params: 'A1' });
    await allSettled(deviceSaved, { scope, params: device('B2', { label: 'Elsewhere' }) });
    expect(scope.getState($panelDevice)?.label).toBe('A1');
    await allSettled(deviceSaved, { scope, params: device('A1', { label: 'Moved', address: 'Baton Rouge, LA, USA' }) });
    expect(scope.getState($panelDevice)).toMatchObject({ label: 'Moved', address: 'Baton Rouge, LA, USA' });
  });

  it('closes when the device shown is deleted', async () => {
    const scope = setup();
    await allSettled(panelOpened, { scope, params: 'A1' });
    await allSettled(deviceDeleted, { scope, params: 'B2' });
    expect(scope.getState($panelSerial)).toBe('A1');
    await allSettled(deviceDeleted, { scope, params: 'A1' });
    expect(scope.getState($panelSerial)).toBeNull();
  });
});
