import { LOW_BATTERY_PERCENT, LOW_FLUID_THRESHOLD, type PumpType, type WarningCode } from '../constants.ts';
import type { BatchWarningState } from './batch-status.ts';

export type WarningInput = {
  batteryPercent: number | null;
  leftPumpType: PumpType | string;
  rightPumpType: PumpType | string;
  /** false when the level sensor reports the reservoir empty */
  levelSensor1: boolean;
  levelSensor2: boolean;
  volumeRemain: number;
  volumeRemain2: number;
  /** the device has never reported since it was placed */
  neverReported: boolean;
  leftBatch?: BatchWarningState | null;
  rightBatch?: BatchWarningState | null;
  pumpSensorFault?: boolean;
  failedRequest?: boolean;
};

/**
 * The warning list of a device (spec sections 3 and 9), as pure rules:
 * BATTERY below 50 %; LEFT/RIGHT_<FLUID>_PUMP when that pump's level sensor reads empty;
 * LEFT/RIGHT_PUMP_VOLUME at 250 or less remaining; BATCH_EXPIRED / BATCH_RECALLED for a batch feeding
 * a pump; REGISTRATION for a placed device that never reported; PUMP_SENSOR and FAILED_REQUEST as
 * reported by the gateway.
 */
/** Below 50 %: the BATTERY warning and a low battery wherever one is shown. */
export const isLowBattery = (percent: number | null | undefined): boolean => percent != null && percent < LOW_BATTERY_PERCENT;
/** 250 or less remaining: the <SIDE>_PUMP_VOLUME warning and a low pump wherever one is shown. */
export const isLowFluid = (volume: number): boolean => volume <= LOW_FLUID_THRESHOLD;

export function deviceWarnings(d: WarningInput): WarningCode[] {
  const out: WarningCode[] = [];
  if (isLowBattery(d.batteryPercent)) out.push('BATTERY');
  const pumps = [
    { side: 'LEFT', type: d.leftPumpType, sensor: d.levelSensor1, volume: d.volumeRemain, batch: d.leftBatch },
    { side: 'RIGHT', type: d.rightPumpType, sensor: d.levelSensor2, volume: d.volumeRemain2, batch: d.rightBatch },
  ] as const;
  for (const p of pumps) {
    if (p.type !== 'Sunscreen' && p.type !== 'Sanitizer') continue;
    if (!p.sensor) out.push(`${p.side}_${p.type.toUpperCase() as 'SUNSCREEN' | 'SANITIZER'}_PUMP`);
    if (isLowFluid(p.volume)) out.push(`${p.side}_PUMP_VOLUME`);
  }
  const used = pumps.filter((p) => p.type === 'Sunscreen' || p.type === 'Sanitizer').map((p) => p.batch);
  if (used.some((b) => b?.expired)) out.push('BATCH_EXPIRED');
  if (used.some((b) => b?.recalled)) out.push('BATCH_RECALLED');
  if (d.neverReported) out.push('REGISTRATION');
  if (d.pumpSensorFault) out.push('PUMP_SENSOR');
  if (d.failedRequest) out.push('FAILED_REQUEST');
  return out;
}

/** A pending change as the FAILED_REQUEST rule reads it (pending_changes: setting, status, requested_at). */
export type ChangeOutcome = { setting: string; status: string; requestedAt: Date | string | number };

const time = (t: ChangeOutcome['requestedAt']) => (t instanceof Date ? t.getTime() : typeof t === 'number' ? t : Date.parse(t));

/** A newer request of the same setting replaced this change (whatever became of the newer one). */
export function isSupersededChange(change: ChangeOutcome, all: readonly ChangeOutcome[]): boolean {
  const at = time(change.requestedAt);
  return all.some((q) => q.setting === change.setting && time(q.requestedAt) > at);
}

/**
 * FAILED_REQUEST: a change the device could not apply ('failed') or never picked up in time ('expired'),
 * until a newer request of the same setting replaces it. `all` is every pending change of the device.
 * The SQL forms of this rule (recomputeWarnings, gateway_checkin_store of migration 0006) are held to it
 * by server/src/devices/device-warnings.test.ts on the same table of cases.
 */
export function hasFailedRequest(all: readonly ChangeOutcome[]): boolean {
  return all.some((c) => (c.status === 'failed' || c.status === 'expired') && !isSupersededChange(c, all));
}

const BATCH_WARNINGS: readonly WarningCode[] = ['BATCH_EXPIRED', 'BATCH_RECALLED'];

/** The flags stored beside the list: is_warning (any warning), is_batch_warning, battery_warning. */
export function warningFlags(list: readonly WarningCode[]) {
  return {
    isWarning: list.length > 0,
    isBatchWarning: list.some((w) => BATCH_WARNINGS.includes(w)),
    batteryWarning: list.includes('BATTERY'),
  };
}

/**
 * What a person reads for each warning code (device cards, lists, the selected pin's card): the spec
 * names codes only, and a customer should not have to decode LEFT_SANITIZER_PUMP.
 */
export const WARNING_TEXT: Record<WarningCode, string> = {
  BATTERY: 'Low battery',
  LEFT_SUNSCREEN_PUMP: 'Left sunscreen pump empty',
  RIGHT_SUNSCREEN_PUMP: 'Right sunscreen pump empty',
  LEFT_SANITIZER_PUMP: 'Left sanitizer pump empty',
  RIGHT_SANITIZER_PUMP: 'Right sanitizer pump empty',
  REGISTRATION: 'Not registered yet',
  BATCH_EXPIRED: 'Batch expired',
  BATCH_RECALLED: 'Batch recalled',
  PUMP_SENSOR: 'Pump sensor fault',
  LEFT_PUMP_VOLUME: 'Left pump fluid low',
  RIGHT_PUMP_VOLUME: 'Right pump fluid low',
  FAILED_REQUEST: 'Failed request',
};

/** A warning code in words; an unknown code (a newer device) is shown as sent rather than hidden. */
export const warningText = (code: string) => WARNING_TEXT[code as WarningCode] ?? code;
