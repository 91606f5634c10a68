import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fakeDevice } from '../../entities/device/lib/fake-device';
import { subscribeFx, unsubscribeFx } from '../../shared/realtime';
import { areaFocused, deviceChosen } from '../../widgets/dashboard-panel';
import { $panelSerial, panelClosed } from '../../widgets/device-panel';
import { fetchPanelDeviceFx } from '../../widgets/device-panel/model';
import { $user } from '../../entities/session';
import { $viewRequest } from '../../widgets/map';
import { userManagementRequested, zoomInRequested, zoomOutRequested } from '../../widgets/profile-panel';
import { $userManagementOpen } from '../../widgets/user-management';
import { $panelShown, deviceManagerRequested } from '../../widgets/selected-device';
import { $userManagementAsks } from './model';
import './user-management-wiring';

function setup(user: Record<string, unknown> = { role: 'distributor', user_type: 'distributor' }) {
  return fork({
    values: [[$user, user]],
    handlers: [
      [fetchPanelDeviceFx, async (serial: string) => ({ ...fakeDevice(serial), pending_changes: [] }) as never],
      [subscribeFx, async () => ({ ok: true, subscribed: [] })],
      [unsubscribeFx, async () => undefined],
    ],
  });
}

describe('map page wiring', () => {
  it("opens the device panel for a device the dashboard chose, and shows the dashboard's area on the map", async () => {
    const scope = setup();
    await allSettled(deviceChosen, { scope, params: 'B2' });
    expect(scope.getState($panelSerial)).toBe('B2');
    await allSettled(areaFocused, {
      scope,
      params: [
        [-90.1, 29.9],
        [-89.6, 30.3],
      ],
    });
    expect(scope.getState($viewRequest)?.bounds).toEqual([
      [-90.1, 29.9],
      [-89.6, 30.3],
    ]);
  });

  it("opens the device panel from the selected pin's card, and hides the card while the panel is open", async () => {
    const scope = setup();
    expect(scope.getState($panelShown)).toBe(false);
    await allSettled(deviceManagerRequested, { scope, params: 'A1' });
    expect(scope.getState($panelSerial)).toBe('A1');
    expect(scope.getState($panelShown)).toBe(true);
    await allSettled(panelClosed, { scope });
    expect(scope.getState($panelShown)).toBe(false);
  });

  it("zooms the map from the profile panel's buttons and opens User Management from its image", async () => {
    const scope = setup();
    // Zoom steps are commands to the map provider, which adds them up.
    await allSettled(zoomInRequested, { scope });
    expect(scope.getState($viewRequest)).toMatchObject({ zoomBy: 1 });
    await allSettled(zoomOutRequested, { scope });
    expect(scope.getState($viewRequest)).toMatchObject({ zoomBy: -1 });
    // The first click asks for User Management's code (ui/map-page shows its part, which opens it) ...
    expect(scope.getState($userManagementAsks)).toBe(0);
    await allSettled(userManagementRequested, { scope });
    expect(scope.getState($userManagementAsks)).toBe(1);
    // ... and once that code is there (user-management-wiring), a click opens it.
    expect(scope.getState($userManagementOpen)).toBe(true);
  });
});
