import { devicesApi } from '@fleet/shared';
import { call, createApiFx } from '../../shared/api';

/**
 * Registration Setup of the device panel's Device Management section (spec section 2): the device's power-off
 * and wake-up times (POST /api/v1/deviceRegistrationSetup), with the texts of its result dialog. The panel's
 * form (widgets/device-panel/setup.model.ts) and control dialog (controls.model.ts) compose them.
 */
export const TIME_SAVED = 'Your time setup has been successfully saved.';
export const TIME_FAILED = 'Oops! There was an error saving your time setup. Please try again later.';

export const saveTimerFx = createApiFx(
  ({ serial, powerOffTime, wakeUpTime }: { serial: string; powerOffTime: number; wakeUpTime: number }) =>
    call(devicesApi.registrationSetup, {
      params: { serial },
      body: { powerOffTime, wakeUpTime },
    }),
);
