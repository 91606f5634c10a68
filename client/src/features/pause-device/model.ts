import { devicesApi } from '@fleet/shared';
import type { DeviceAnswer } from '@fleet/shared';
import { deviceOfWriteAnswer } from '../../entities/device';
import { call } from '../../shared/api';

/**
 * Pause or resume a device (spec section 2's Pause/Resume; POST /api/v1/setPauseDevice). The device panel's
 * control model (widgets/device-panel/controls.model.ts) runs it and shows its loading and result dialog.
 */
export const pauseDevice = async (serial: string, isPause: boolean): Promise<DeviceAnswer> =>
  deviceOfWriteAnswer(await call(devicesApi.setPause, { params: { serial }, body: { isPause } }));

export const pauseText = (isPause: boolean) => (isPause ? 'Device paused' : 'Device resumed');
