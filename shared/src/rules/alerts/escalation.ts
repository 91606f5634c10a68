import type { Channel } from './matching.ts';
import type { AlertSettings } from './settings.ts';

/** One step of a distributor's escalation chain: whom, through which channels. */
export type EscalationStep = { userId: number; channels: Channel[] };

/**
 * A distributor organisation's escalation policy: an incident not acknowledged within `afterMinutes`
 * goes to the chain's first step, then every `repeatMinutes` to the next, the last step repeating until
 * someone acknowledges.
 */
export type EscalationPolicy = { afterMinutes: number; repeatMinutes: number; steps: EscalationStep[] };

export const defaultEscalation = (s: Pick<AlertSettings, 'escalateAfterMinutes' | 'repeatEveryMinutes'>): EscalationPolicy => ({
  afterMinutes: s.escalateAfterMinutes,
  repeatMinutes: s.repeatEveryMinutes,
  steps: [],
});

const MINUTE = 60_000;

/** When escalation number `n` (0: the first) of an incident opened at `openedAt` is due. */
export function escalationAt(openedAt: Date, policy: EscalationPolicy, n: number): Date {
  return new Date(openedAt.getTime() + (policy.afterMinutes + n * policy.repeatMinutes) * MINUTE);
}

/** Whom escalation number `n` reaches: the chain's step n, the last one repeating. */
export function escalationTarget(policy: EscalationPolicy, n: number): EscalationStep | null {
  if (!policy.steps.length) return null;
  return policy.steps[Math.min(n, policy.steps.length - 1)]!;
}

/**
 * The escalations due at `now` for an unacknowledged incident, from number `sent` on (those already
 * recorded); none once acknowledged or resolved. A worker that slept through several periods catches
 * up with each missed number once (each has its own idempotency key), not with a burst of repeats of one.
 */
export function escalationsDue(
  i: { openedAt: Date; state: 'open' | 'acknowledged' | 'resolved' },
  policy: EscalationPolicy,
  sent: number,
  now: Date,
): { n: number; dueAt: Date; step: EscalationStep }[] {
  if (i.state !== 'open' || !policy.steps.length) return [];
  const out: { n: number; dueAt: Date; step: EscalationStep }[] = [];
  for (let n = sent; ; n++) {
    const dueAt = escalationAt(i.openedAt, policy, n);
    if (dueAt > now) break;
    out.push({ n, dueAt, step: escalationTarget(policy, n)! });
    if (out.length >= 100) break;
  }
  return out;
}

/** When the next escalation after `sent` falls due (the worker's wake-up), or null when none will. */
export function nextEscalationAt(
  i: { openedAt: Date; state: 'open' | 'acknowledged' | 'resolved' },
  policy: EscalationPolicy,
  sent: number,
): Date | null {
  if (i.state !== 'open' || !policy.steps.length) return null;
  return escalationAt(i.openedAt, policy, sent);
}
