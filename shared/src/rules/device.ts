import { MIN_SOFTWARE_VERSION_RIGHT_PUMP, PUMP_MODE_TSP, TIMER_MAX_MINUTES, TIMER_MIN_MINUTES } from '../constants.ts';

/** 1 tsp in ml. Pump mode n (1..8) dispenses PUMP_MODE_TSP[n-1] tsp per shot. */
export const ML_PER_TSP = 4.92892;

export function mlPerShotForMode(mode: number): number {
  const tsp = PUMP_MODE_TSP[mode - 1];
  if (tsp === undefined) throw new RangeError(`pump mode ${mode} is not 1..8`);
  return Number((tsp * ML_PER_TSP).toFixed(3));
}

/** The pump mode (1..8) a shot volume corresponds to, or null when it is none of them. */
export function pumpModeForMl(ml: number): number | null {
  const i = PUMP_MODE_TSP.findIndex((tsp) => Math.abs(tsp * ML_PER_TSP - ml) < 0.01);
  return i < 0 ? null : i + 1;
}

/** Registration timers are clamped to 1..600 minutes (spec section 5), not refused. */
export function clampTimerMinutes(minutes: number): number {
  return Math.min(TIMER_MAX_MINUTES, Math.max(TIMER_MIN_MINUTES, Math.round(minutes)));
}

/** Compares dotted versions numerically ('1.0.10' > '1.0.9'). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((x) => parseInt(x, 10) || 0);
  const pb = b.split('.').map((x) => parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

/** The right pump can be scheduled only on a device with two pumps and software 1.0.9 or higher. */
export function supportsRightPump(device: { right_pump_type: string; core_ver: string | null }): boolean {
  return (
    device.right_pump_type !== 'Unspecified' &&
    !!device.core_ver &&
    compareVersions(device.core_ver, MIN_SOFTWARE_VERSION_RIGHT_PUMP) >= 0
  );
}

/** Remaining fluid in tsp = 0.2 x the volume value (spec section 9). */
export const remainingTsp = (volume: number) => Number((volume * 0.2).toFixed(1));

/**
 * Label truncation of spec section 9: text longer than `over` characters keeps its first `keep` and
 * gets '...' (device card 20; panel site name 12 when over 15; county 47 when over 50).
 */
export const cutText = (text: string, keep: number, over = keep) => (text.length > over ? `${text.slice(0, keep)}...` : text);
export const LABEL_CUT = { deviceCard: [20, 20], panelSite: [12, 15], county: [47, 50] } as const;

/** Grace on top of the missed check-ins, for clock drift and a slow network at wake-up. */
export const OFFLINE_GRACE_MINUTES = 10;
/** A device is offline after missing this many of the check-ins its own schedule promised. */
export const MISSED_CHECKINS_FOR_OFFLINE = 2;

/**
 * Minutes after its last check-in that a device counts as offline: MISSED_CHECKINS_FOR_OFFLINE whole
 * cycles of its own power-off/wake-up schedule plus the grace. The fleet-health job applies the same rule
 * in SQL (server/src/jobs/fleet-health.ts); the season runner applies it here, on the simulated clock.
 */
export const offlineAfterMinutes = (poweroffMinutes: number, wakeupMinutes: number) =>
  (poweroffMinutes + wakeupMinutes) * MISSED_CHECKINS_FOR_OFFLINE + OFFLINE_GRACE_MINUTES;

/** The offline rule at `now` (the injected clock's time): strictly later than the line goes offline. */
export function isOfflineAt(
  device: { lastSeenAt: Date | number | null; poweroffMinutes: number; wakeupMinutes: number },
  now: Date | number,
): boolean {
  if (device.lastSeenAt == null) return false;
  return +now - +device.lastSeenAt > offlineAfterMinutes(device.poweroffMinutes, device.wakeupMinutes) * 60_000;
}
