import type { DeviceAnswer } from '@fleet/shared';
import { deviceOfWriteAnswer, type DeviceWriteAnswer } from '../../entities/device';
import { http, segment } from '../../shared/api';

/**
 * Pause or resume a device (spec section 2's Pause/Resume; POST /api/v1/setPauseDevice). The device panel's
 * control model (widgets/device-panel/controls.model.ts) runs it and shows its loading and result dialog.
 */
export const pauseDevice = async (serial: string, isPause: boolean): Promise<DeviceAnswer> =>
  deviceOfWriteAnswer(
    await http<DeviceWriteAnswer>(`/api/v1/setPauseDevice/${segment(serial)}`, { method: 'POST', json: { isPause } }),
  );

export const pauseText = (isPause: boolean) => (isPause ? 'Device paused' : 'Device resumed');
