import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fakeDevice } from '../../entities/device/lib/fake-device';
import { subscribeFx, unsubscribeFx } from '../../shared/realtime';
import { areaFocused, deviceChosen } from '../../widgets/dashboard-panel';
import { $panelSerial } from '../../widgets/device-panel';
import { fetchPanelDeviceFx } from '../../widgets/device-panel/model';
import { $viewRequest } from '../../widgets/map';
import './model';

describe('map page wiring', () => {
  it("opens the device panel for a device the dashboard chose, and shows the dashboard's area on the map", async () => {
    const scope = fork({
      handlers: [
        [fetchPanelDeviceFx, async (serial: string) => ({ ...fakeDevice(serial), pending_changes: [] }) as never],
        [subscribeFx, async () => ({ ok: true, subscribed: [] })],
        [unsubscribeFx, async () => undefined],
      ],
    });
    await allSettled(deviceChosen, { scope, params: 'B2' });
    expect(scope.getState($panelSerial)).toBe('B2');
    await allSettled(areaFocused, { scope, params: [[-90.1, 29.9], [-89.6, 30.3]] });
    expect(scope.getState($viewRequest)?.bounds).toEqual([[-90.1, 29.9], [-89.6, 30.3]]);
  });
});
