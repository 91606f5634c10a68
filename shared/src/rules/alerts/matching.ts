import type { AlertCondition, Severity } from './settings.ts';

export const CHANNELS = ['inApp', 'email', 'sms', 'push'] as const;
export type Channel = (typeof CHANNELS)[number];

/** Over which devices a rule listens: all the user's, a brand's, a county's, or a site's (always within the user's own scope). */
export type RuleScope =
  { type: 'all' } | { type: 'brand'; id: number } | { type: 'county'; id: number } | { type: 'site'; id: number };

/** Quiet hours: local times in the user's zone; `from` after `to` spans midnight (22:00-07:00). */
export type QuietHours = { from: string; to: string; timeZone: string };

/** One user's rule (PUT /api/v1/notificationRules). `condition` 'ANY' listens to every condition. */
export type NotificationRule = {
  condition: AlertCondition | 'ANY';
  scope: RuleScope;
  channels: Channel[];
  quietHours: QuietHours | null;
  digest: boolean;
};

/** What a rule is matched against: the incident's condition and where its devices are. */
export type IncidentFacts = {
  condition: AlertCondition;
  severity: Severity;
  /** null for an account-level incident: only 'all' rules reach it. */
  siteId: number | null;
  brandIds: readonly number[];
  countyIds: readonly number[];
};

export function ruleMatches(rule: NotificationRule, f: IncidentFacts): boolean {
  if (rule.condition !== 'ANY' && rule.condition !== f.condition) return false;
  switch (rule.scope.type) {
    case 'all':
      return true;
    case 'site':
      return f.siteId === rule.scope.id;
    case 'brand':
      return f.brandIds.includes(rule.scope.id);
    case 'county':
      return f.countyIds.includes(rule.scope.id);
  }
}

const TIME = /^([01][0-9]|2[0-3]):([0-5][0-9])$/;
/** 'HH:mm' (24 h) as minutes of the day; null when it is not such a time. */
export function minutesOfDay(t: string): number | null {
  const m = TIME.exec(t);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
}

/** Minutes since local midnight of a moment in a zone (Intl: no library needed for one zone lookup). */
export function localMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

/**
 * When the quiet hours around `now` end, or null when `now` is outside them. Computed in the user's
 * zone; the end is reached by adding the minutes left (a daylight-saving change inside the quiet hours
 * moves it by that hour, which a night's notice does not notice).
 */
export function quietUntil(q: QuietHours | null, now: Date): Date | null {
  if (!q) return null;
  const from = minutesOfDay(q.from);
  const to = minutesOfDay(q.to);
  if (from === null || to === null || from === to) return null;
  const m = localMinutes(now, q.timeZone);
  const inside = from < to ? m >= from && m < to : m >= from || m < to;
  if (!inside) return null;
  const left = (to - m + 1440) % 1440;
  const start = Math.floor(now.getTime() / 60_000) * 60_000;
  return new Date(start + left * 60_000);
}

/** The hour of the day digests go out at, in the user's zone. */
export const DIGEST_HOUR = 8;

/** The next digest time after `now`: DIGEST_HOUR:00 in the zone, today if still ahead, else tomorrow. */
export function nextDigestAt(now: Date, timeZone: string, hour = DIGEST_HOUR): Date {
  const m = localMinutes(now, timeZone);
  const left = (hour * 60 - m + 1440) % 1440 || 1440;
  const start = Math.floor(now.getTime() / 60_000) * 60_000;
  return new Date(start + left * 60_000);
}

/** The user facts that gate channels: the spec's notification switches and the phone SMS needs. */
export type RecipientFacts = { notifyEmail: boolean; notifyPhone: boolean; phone: string; hasPushSubscription?: boolean };

/**
 * The spec's switches gate the channels: 'Email' (is_enable_notification_email) gates mail, 'Phone'
 * (is_enable_notification_phone) gates SMS, which needs a phone number too. In-app always reaches a
 * signed-in user; Web Push needs a browser that subscribed (from Account Settings).
 */
export function channelOpen(channel: Channel, user: RecipientFacts): boolean {
  switch (channel) {
    case 'inApp':
      return true;
    case 'email':
      return user.notifyEmail;
    case 'sms':
      return user.notifyPhone && user.phone.trim() !== '';
    case 'push':
      return user.hasPushSubscription !== false;
  }
}

/** One delivery a user's rules ask for: a channel, when, and whether it waits for the digest. */
export type Delivery = { channel: Channel; dueAt: Date; digest: boolean };

/**
 * What a user's rules make of an incident at `now`: one delivery per channel (the earliest any matching
 * rule asks for), in-app never held back (it is silent and is the incident list itself). Info incidents
 * go to digests only. Quiet hours hold email, SMS and push until they end; a digest goes out at the next
 * DIGEST_HOUR in the rule's zone (the quiet hours' zone, else UTC).
 */
export function deliveriesFor(rules: readonly NotificationRule[], f: IncidentFacts, user: RecipientFacts, now: Date): Delivery[] {
  const best = new Map<Channel, Delivery>();
  for (const rule of rules) {
    if (!ruleMatches(rule, f)) continue;
    const digest = rule.digest || f.severity === 'info';
    for (const channel of rule.channels) {
      if (!channelOpen(channel, user)) continue;
      let d: Delivery;
      if (channel === 'inApp') d = { channel, dueAt: now, digest: false };
      else if (digest) d = { channel, dueAt: nextDigestAt(now, rule.quietHours?.timeZone ?? 'UTC'), digest: true };
      else d = { channel, dueAt: quietUntil(rule.quietHours, now) ?? now, digest: false };
      const prev = best.get(channel);
      if (!prev || d.dueAt < prev.dueAt) best.set(channel, d);
    }
  }
  return [...best.values()];
}
