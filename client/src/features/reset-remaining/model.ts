import type { DeviceAnswer } from '@fleet/shared';
import { deviceOfWriteAnswer, type DeviceWriteAnswer } from '../../entities/device';
import { http, segment } from '../../shared/api';

/**
 * RESET tsp of the device panel (spec section 2): the pump's remaining amount back to full
 * (POST /api/v1/resetMl). The device panel's control model (widgets/device-panel/controls.model.ts) runs it.
 */
export const resetRemaining = async (serial: string, pump: 1 | 2): Promise<DeviceAnswer> =>
  deviceOfWriteAnswer(
    await http<DeviceWriteAnswer>(`/api/v1/resetMl/${segment(serial)}`, { method: 'POST', json: { pumpNumber: pump } }),
  );

export const RESET_DONE = 'Remaining amount reset';
