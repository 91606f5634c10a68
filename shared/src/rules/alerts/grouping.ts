import { ACCOUNT_CONDITIONS, type AlertCondition, type AlertSettings } from './settings.ts';

/**
 * The cause alerts are grouped by: the condition, with the pump's side dropped (a site whose left and
 * right pumps run empty has one 'pump empty' problem for the person who refills it).
 */
export function causeOf(condition: AlertCondition): string {
  return condition.replace(/^(LEFT|RIGHT)_/, '');
}

/**
 * The grouping key of an alert: its site and cause, or its account and cause for an account-level
 * condition (an overdue subscription is the account's incident, not a site's). A device without a site
 * (not placed) groups by itself.
 */
export function incidentKey(a: {
  condition: AlertCondition;
  siteId: number | null;
  accountId?: number | null;
  serial?: string | null;
}): string {
  const cause = causeOf(a.condition);
  if (ACCOUNT_CONDITIONS.includes(a.condition)) return `account:${a.accountId ?? 0}:${cause}`;
  if (a.siteId !== null) return `site:${a.siteId}:${cause}`;
  return `device:${a.serial ?? ''}:${cause}`;
}

export type IncidentCandidate = {
  id: number;
  key: string;
  state: 'open' | 'acknowledged' | 'resolved';
  resolvedAt: Date | null;
  resolvedByHand: boolean;
};

/**
 * Which incident a raised alert belongs to (issue 43: by site and cause within a window):
 * - an unresolved incident of the same key (a carrier outage reaching a site's devices one by one is
 *   one incident, however long it lasts);
 * - else one of the same key that resolved itself (every alert cleared) within the window: reopened,
 *   since a problem back within the hour is the same problem;
 * - else a new incident. One resolved by hand stays resolved: someone said it was dealt with, and a
 *   new incident says it came back.
 */
export function placeAlert(
  candidates: readonly IncidentCandidate[],
  key: string,
  now: Date,
  settings: Pick<AlertSettings, 'groupWindowMinutes'>,
): { join: number } | { reopen: number } | { open: true } {
  const same = candidates.filter((c) => c.key === key);
  const unresolved = same.filter((c) => c.state !== 'resolved').sort((a, b) => b.id - a.id)[0];
  if (unresolved) return { join: unresolved.id };
  const windowStart = now.getTime() - settings.groupWindowMinutes * 60_000;
  const recent = same
    .filter((c) => !c.resolvedByHand && c.resolvedAt && c.resolvedAt.getTime() >= windowStart)
    .sort((a, b) => b.id - a.id)[0];
  if (recent) return { reopen: recent.id };
  return { open: true };
}
