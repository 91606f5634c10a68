import { devicesApi } from '@fleet/shared';
import type { DeviceAnswer } from '@fleet/shared';
import { deviceOfWriteAnswer } from '../../entities/device';
import { call } from '../../shared/api';

/**
 * RESET tsp of the device panel (spec section 2): the pump's remaining amount back to full
 * (POST /api/v1/resetMl). The device panel's control model (widgets/device-panel/controls.model.ts) runs it.
 */
export const resetRemaining = async (serial: string, pump: 1 | 2): Promise<DeviceAnswer> =>
  deviceOfWriteAnswer(await call(devicesApi.resetMl, { params: { serial }, body: { pumpNumber: pump } }));

export const RESET_DONE = 'Remaining amount reset';
