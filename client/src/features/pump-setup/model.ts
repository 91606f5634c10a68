import { STEPS_PER_ML, STEPS_PER_SECOND, devicesApi, type BodyOf, type PumpSetting } from '@fleet/shared';
import { call, createApiFx } from '../../shared/api';

/**
 * Pump Setup of the device panel's Device Management section (spec section 2): read the pump setting
 * (GET /api/v1/pumpSetting) and save it (PUT /api/v1/editPumpSetting), with the texts of its result dialog.
 * The panel's form (widgets/device-panel/setup.model.ts) and control dialog (controls.model.ts) compose them.
 */
export type { PumpSetting };

export const PUMP_SAVED = 'Your pump settings have been successfully updated.';
export const PUMP_FAILED = 'Oops! There was an error updating your pump settings. Please try again later.';

export const fetchPumpSettingFx = createApiFx((serial: string) => call(devicesApi.pumpSetting, { params: { serial } }));
export const savePumpSettingFx = createApiFx(({ serial, setting }: { serial: string; setting: Partial<PumpSetting> }) =>
  call(devicesApi.editPumpSetting, {
    params: { serial },
    body: setting as BodyOf<typeof devicesApi.editPumpSetting>,
  }),
);

/** The body of editPumpSetting: the fixed pump calibration with what the form sets. */
export const pumpSettingWrite = (setting: PumpSetting): Partial<PumpSetting> => ({
  steps_per_second: STEPS_PER_SECOND,
  steps_per_ml: STEPS_PER_ML,
  steps_per_second2: STEPS_PER_SECOND,
  steps_per_ml2: STEPS_PER_ML,
  ml_per_shot: setting.ml_per_shot,
  ml_per_shot2: setting.ml_per_shot2,
  vandalism_max_shots: setting.vandalism_max_shots,
  vandalism_interval: setting.vandalism_interval,
});
