export { fetchPumpSettingFx, PUMP_FAILED, PUMP_SAVED, pumpSettingWrite, savePumpSettingFx, type PumpSetting } from './model';
