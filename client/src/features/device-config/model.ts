import { devicesApi } from '@fleet/shared';
import type { DeviceAnswer } from '@fleet/shared';
import { deviceOfWriteAnswer } from '../../entities/device';
import { call } from '../../shared/api';

/**
 * The device control panel's configuration toggles (spec section 2: Maintenance, Anti vandalism, Activated;
 * POST /api/v1/set_device_config), one setting a call, and the notice each shows (spec section 8 texts).
 * The device panel's control model (widgets/device-panel/controls.model.ts) runs them.
 */
export type DeviceConfigKind = 'maintenance' | 'vandalism' | 'active';
const FIELD: Record<DeviceConfigKind, string> = {
  maintenance: 'is_enabled_maintenance',
  vandalism: 'is_enabled_vandalism',
  active: 'active',
};

export const CONFIG_SAVED = 'Your config setup has been successfully saved.';

export const setDeviceConfig = async (serial: string, kind: DeviceConfigKind, value: boolean): Promise<DeviceAnswer> =>
  deviceOfWriteAnswer(
    await call(devicesApi.setConfig, {
      params: { serial },
      body: { [FIELD[kind]]: value },
    }),
  );

export function deviceConfigText(kind: DeviceConfigKind, value: boolean): string {
  switch (kind) {
    case 'maintenance':
      return value ? 'Maintenance activated' : 'Maintenance deactivated';
    case 'vandalism':
      return value ? 'Anti vandalism activated' : 'Anti vandalism deactivated';
    case 'active':
      return CONFIG_SAVED;
  }
}
