import type { AlertSettings } from './settings.ts';

/**
 * Where one alert (a device's condition, or an account's) stands between evaluations: active (with
 * `absentSince` once the condition went away and the hold has not run out), or cleared.
 */
export type AlertTrack = { state: 'active' | 'cleared'; absentSince: Date | null; clearedAt: Date | null };

/** What an evaluation does to the alert: raise a new one, reopen the cleared one, clear it, or nothing. */
export type AlertStep = 'raise' | 'reopen' | 'clear' | 'hold' | 'none';

const MINUTE = 60_000;

/**
 * Hysteresis (issue 43): an alert clears only once its condition has been gone for the hold time, so a
 * device that flaps (a level sensor bouncing at the line, a device late by a minute) raises one alert,
 * not one per bounce; a condition that comes back within the grouping window after it cleared reopens
 * the same alert (and so its incident) instead of raising a new one.
 *
 * `present`: whether the condition holds at `now`. Answers the next track and the step taken:
 * - 'hold': the condition is gone but the hold has not run out (or it came back within the hold);
 * - 'raise' with a null previous track, or a cleared one too long ago (the caller opens a new alert).
 */
export function stepAlert(
  track: AlertTrack | null,
  present: boolean,
  now: Date,
  settings: Pick<AlertSettings, 'holdMinutes' | 'groupWindowMinutes'>,
): { track: AlertTrack | null; step: AlertStep } {
  if (!track)
    return present
      ? { track: { state: 'active', absentSince: null, clearedAt: null }, step: 'raise' }
      : { track: null, step: 'none' };
  if (track.state === 'active') {
    if (present) return { track: { ...track, absentSince: null }, step: track.absentSince ? 'hold' : 'none' };
    const since = track.absentSince ?? now;
    if (now.getTime() - since.getTime() >= settings.holdMinutes * MINUTE)
      return { track: { state: 'cleared', absentSince: null, clearedAt: now }, step: 'clear' };
    return { track: { ...track, absentSince: since }, step: 'hold' };
  }
  if (!present) return { track, step: 'none' };
  const reopen = track.clearedAt !== null && now.getTime() - track.clearedAt.getTime() <= settings.groupWindowMinutes * MINUTE;
  return { track: { state: 'active', absentSince: null, clearedAt: null }, step: reopen ? 'reopen' : 'raise' };
}

/**
 * Flap damping of notices. A reopening happens only within the grouping window after the incident resolved
 * itself, so an incident that reopens again and again is one problem flapping. Its first reopening tells a
 * recipient on a channel again ("it is back") when their last notice of it (first or reopen) is at least a
 * grouping window old; later reopenings are silent (the timeline and the incident list still show each
 * one). Once it stays resolved beyond the window, a return is a new incident with a first notice.
 */
export function reopenNoticeDue(
  reopenNumber: number,
  lastNoticeAt: Date | null | undefined,
  now: Date,
  s: Pick<AlertSettings, 'groupWindowMinutes'>,
): boolean {
  if (reopenNumber > 1) return false;
  return !lastNoticeAt || now.getTime() - lastNoticeAt.getTime() >= s.groupWindowMinutes * 60_000;
}
