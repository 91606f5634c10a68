import { describe, expect, it } from 'vitest';
import { ALERT_DEFAULTS, severityOf, worstSeverity } from './settings.ts';
import { batteryFinding, deviceFindings, offlineSince, subscriptionFinding, warningFindings } from './conditions.ts';
import { batteryForecast, type DailyMinimum } from '../service-day/battery-forecast.ts';
import { reopenNoticeDue, stepAlert, type AlertTrack } from './hysteresis.ts';
import { causeOf, incidentKey, placeAlert } from './grouping.ts';
import { deliveriesFor, nextDigestAt, quietUntil, ruleMatches, type IncidentFacts, type NotificationRule } from './matching.ts';
import { escalationsDue, nextEscalationAt, type EscalationPolicy } from './escalation.ts';

/** A controllable clock: every rule takes `now`, the tests move it. */
function clock(start = '2026-11-23T12:00:00Z') {
  let t = Date.parse(start);
  return { now: () => new Date(t), advance: (minutes: number) => (t += minutes * 60_000) };
}

describe('conditions, each with its reason', () => {
  it('warning codes in words; unknown codes are not conditions', () => {
    expect(warningFindings(['BATTERY', 'LEFT_SUNSCREEN_PUMP', 'NEWER_CODE'])).toEqual([
      { condition: 'BATTERY', reason: 'Low battery' },
      { condition: 'LEFT_SUNSCREEN_PUMP', reason: 'Left sunscreen pump empty' },
    ]);
  });
  it('offline by the device schedule: 2 cycles + 10 min grace, not a fixed timeout', () => {
    const seen = new Date('2026-11-23T10:00:00Z');
    const d = { lastSeenAt: seen, poweroffTime: '30', wakeup1Time: '5' }; // 35-minute cycle: offline after 80 min
    expect(offlineSince(d, new Date('2026-11-23T11:20:00Z'))).toBeNull();
    expect(offlineSince(d, new Date('2026-11-23T11:20:01Z'))?.toISOString()).toBe('2026-11-23T11:20:00.000Z');
    // A 5-minute sleeper goes offline much sooner.
    expect(offlineSince({ ...d, poweroffTime: '5' }, new Date('2026-11-23T10:31:00Z'))).not.toBeNull();
    expect(offlineSince({ ...d, lastSeenAt: null }, new Date('2026-11-24T00:00:00Z'))).toBeNull();
  });
  it('offline, run dry within 48 h and a batch expiring within 14 days, in words', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    const f = deviceFindings(
      {
        warningLists: [],
        isOnline: false,
        lastSeenAt: new Date('2026-11-23T09:00:00Z'),
        poweroffTime: '30',
        wakeup1Time: '5',
        timeZone: 'America/Chicago',
        forecasts: [
          {
            pump: 1,
            forecast: {
              kind: 'forecast',
              days: 1.5,
              beyondHorizon: false,
              mlPerDay: 100,
              basisDays: 28,
              basis: "the last 4 weeks' rate",
            },
          },
          {
            pump: 2,
            forecast: {
              kind: 'forecast',
              days: 3,
              beyondHorizon: false,
              mlPerDay: 100,
              basisDays: 28,
              basis: "the last 4 weeks' rate",
            },
          },
        ],
        batches: [
          { batchNo: 'B-1', expireDate: '2026-12-01', isRecalled: false },
          { batchNo: 'B-2', expireDate: '2027-03-01', isRecalled: false },
        ],
      },
      now,
      ALERT_DEFAULTS,
    );
    expect(f).toEqual([
      { condition: 'OFFLINE', reason: 'Offline: no check-in since 03:00 CST, 2 expected check-ins missed (one every 35 min)' },
      { condition: 'PUMP_RUN_DRY', reason: "Left pump forecast to run dry in ~2 days at the last 4 weeks' rate" },
      { condition: 'BATCH_EXPIRING', reason: 'Batch B-1 expires on 2026-12-01 (in 8 days)' },
    ]);
  });
  it('subscription overdue is an account condition with the oldest overdue bill', () => {
    expect(subscriptionFinding([{ status: 'PENDING', dueDate: '2026-11-01', name: 'Basic' }], '2026-11-23')).toBeNull();
    expect(subscriptionFinding([{ status: 'OVERDUE', dueDate: '2026-11-13', name: 'Basic plan' }], '2026-11-23')?.reason).toBe(
      'Subscription overdue: Basic plan was due on 2026-11-13 (10 days ago)',
    );
  });
  it('severity: offline, an empty pump and a recalled batch are critical; registration info; the rest warning', () => {
    expect(['OFFLINE', 'RIGHT_SANITIZER_PUMP', 'BATCH_RECALLED'].map((c) => severityOf(c as never))).toEqual([
      'critical',
      'critical',
      'critical',
    ]);
    expect(severityOf('REGISTRATION')).toBe('info');
    expect(severityOf('BATTERY')).toBe('warning');
    expect(worstSeverity(['info', 'warning', 'critical'])).toBe('critical');
  });
});

describe('the battery forecast condition (issue 48 forecast, 72 h)', () => {
  /** Daily minimums (site-local days) falling `perDay` points a day, ending yesterday at `last`. */
  const falling = (last: number, perDay: number, days = 10): DailyMinimum[] =>
    Array.from({ length: days }, (_, i) => ({
      date: new Date(Date.parse('2026-11-22T12:00:00Z') - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
      percent: last + (days - 1 - i) * perDay,
    }));
  const now = new Date('2026-11-23T12:00:00Z');
  const device = (battery: ReturnType<typeof batteryForecast>, warningLists: string[] = []) => ({
    warningLists,
    isOnline: true,
    lastSeenAt: now,
    poweroffTime: '30',
    wakeup1Time: '5',
    timeZone: 'America/Chicago',
    battery,
  });

  it('raises when the daily-minimum trend crosses the low line within 72 hours, in words with the site zone', () => {
    // 62 % yesterday, falling 5 points a day: below 50 % in about 1.4 days.
    const forecast = batteryForecast(falling(62, 5), now, 'America/Chicago');
    expect(forecast.kind).toBe('falling');
    const f = deviceFindings(device(forecast), now, ALERT_DEFAULTS).find((x) => x.condition === 'BATTERY_FORECAST');
    expect(f?.reason).toMatch(
      /^Battery forecast to go below 50 % in \d+ h \(Nov 2\d, \d\d:\d\d CST\), its daily low falling 5\.0 points a day$/,
    );
    expect(severityOf('BATTERY_FORECAST')).toBe('warning');
  });

  it('nothing beyond the window, for a flat trend, too few days, or a battery already reported low', () => {
    // Falling 1 point a day from 70 %: low in about 19 days, far beyond 72 h.
    expect(batteryFinding(device(batteryForecast(falling(70, 1), now, 'America/Chicago')), now, 72)).toBeNull();
    // ...but within a 30-day window it is one.
    expect(batteryFinding(device(batteryForecast(falling(70, 1), now, 'America/Chicago')), now, 30 * 24)?.reason).toMatch(
      /in \d+ days/,
    );
    expect(batteryFinding(device(batteryForecast(falling(80, 0), now, 'America/Chicago')), now, 72)).toBeNull();
    expect(batteryFinding(device(batteryForecast(falling(55, 5, 2), now, 'America/Chicago')), now, 72)).toBeNull();
    const low = batteryForecast(falling(52, 5), now, 'America/Chicago');
    expect(batteryFinding(device(low), now, 72)).not.toBeNull();
    expect(batteryFinding(device(low, ['BATTERY']), now, 72)).toBeNull();
    // Not evaluated this pass (the check-in path): no finding, the alert is left as it is by the engine.
    expect(deviceFindings({ ...device(low), battery: undefined }, now, ALERT_DEFAULTS).map((x) => x.condition)).not.toContain(
      'BATTERY_FORECAST',
    );
  });
});

describe('hysteresis', () => {
  const s = ALERT_DEFAULTS;
  it('clears only after the condition has been gone for the hold time (15 min)', () => {
    const c = clock();
    let { track, step } = stepAlert(null, true, c.now(), s);
    expect(step).toBe('raise');
    c.advance(1);
    ({ track, step } = stepAlert(track, false, c.now(), s));
    expect(step).toBe('hold');
    c.advance(14);
    ({ track, step } = stepAlert(track, false, c.now(), s));
    expect(step).toBe('hold');
    c.advance(1);
    ({ track, step } = stepAlert(track, false, c.now(), s));
    expect(step).toBe('clear');
    expect(track?.state).toBe('cleared');
  });
  it('a flapping condition raises once: coming back within the hold starts the hold over', () => {
    const c = clock();
    let track: AlertTrack | null = null;
    const steps: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = stepAlert(track, i % 2 === 0, c.now(), s); // present, gone, present... every 5 minutes
      track = r.track;
      steps.push(r.step);
      c.advance(5);
    }
    expect(steps.filter((x) => x === 'raise')).toHaveLength(1);
    expect(steps).not.toContain('clear');
  });
  it('reopens the same alert if it comes back within the window after clearing, else raises a new one', () => {
    const c = clock();
    const cleared: AlertTrack = { state: 'cleared', absentSince: null, clearedAt: c.now() };
    c.advance(59);
    expect(stepAlert(cleared, true, c.now(), s).step).toBe('reopen');
    c.advance(2);
    expect(stepAlert(cleared, true, c.now(), s).step).toBe('raise');
  });
});

describe('flap damping of notices', () => {
  it('the first reopening tells a recipient again once the last notice is a grouping window old; later ones are silent', () => {
    const c = clock();
    const told = c.now();
    c.advance(59);
    expect(reopenNoticeDue(1, told, c.now(), ALERT_DEFAULTS)).toBe(false);
    c.advance(1);
    expect(reopenNoticeDue(1, told, c.now(), ALERT_DEFAULTS)).toBe(true);
    expect(reopenNoticeDue(1, null, c.now(), ALERT_DEFAULTS)).toBe(true);
    c.advance(600);
    expect(reopenNoticeDue(2, told, c.now(), ALERT_DEFAULTS)).toBe(false);
  });
});

describe('grouping into incidents', () => {
  it('by site and cause; the pump side is not a cause', () => {
    expect(incidentKey({ condition: 'OFFLINE', siteId: 7 })).toBe('site:7:OFFLINE');
    expect(causeOf('LEFT_SUNSCREEN_PUMP')).toBe(causeOf('RIGHT_SUNSCREEN_PUMP'));
    expect(incidentKey({ condition: 'SUBSCRIPTION_OVERDUE', siteId: 7, accountId: 3 })).toBe('account:3:SUBSCRIPTION_OVERDUE');
  });
  it('a carrier outage reaching 20 devices over two cycles is one incident', () => {
    const c = clock();
    const incidents: { id: number; key: string; state: 'open'; resolvedAt: null; resolvedByHand: false }[] = [];
    for (let i = 0; i < 20; i++) {
      const key = incidentKey({ condition: 'OFFLINE', siteId: 1 });
      const p = placeAlert(incidents, key, c.now(), ALERT_DEFAULTS);
      if ('open' in p) incidents.push({ id: incidents.length + 1, key, state: 'open', resolvedAt: null, resolvedByHand: false });
      c.advance(3.5); // 70 minutes in all
    }
    expect(incidents).toHaveLength(1);
  });
  it('reopens one that resolved itself within 60 minutes; not one resolved by hand, not an older one', () => {
    const c = clock();
    const key = 'site:1:OFFLINE';
    const auto = { id: 4, key, state: 'resolved' as const, resolvedAt: c.now(), resolvedByHand: false };
    c.advance(60);
    expect(placeAlert([auto], key, c.now(), ALERT_DEFAULTS)).toEqual({ reopen: 4 });
    expect(placeAlert([{ ...auto, resolvedByHand: true }], key, c.now(), ALERT_DEFAULTS)).toEqual({ open: true });
    c.advance(1);
    expect(placeAlert([auto], key, c.now(), ALERT_DEFAULTS)).toEqual({ open: true });
    expect(placeAlert([{ ...auto, key: 'site:2:OFFLINE' }], key, c.now(), ALERT_DEFAULTS)).toEqual({ open: true });
  });
});

describe('rule matching, quiet hours, digest', () => {
  const facts: IncidentFacts = { condition: 'OFFLINE', severity: 'critical', siteId: 5, brandIds: [2], countyIds: [22071] };
  const rule = (r: Partial<NotificationRule>): NotificationRule => ({
    condition: 'ANY',
    scope: { type: 'all' },
    channels: ['inApp', 'email'],
    quietHours: null,
    digest: false,
    ...r,
  });
  const user = { notifyEmail: true, notifyPhone: true, phone: '+15045550100' };

  it('matches by condition and scope (all, brand, county, site)', () => {
    expect(ruleMatches(rule({ condition: 'BATTERY' }), facts)).toBe(false);
    expect(ruleMatches(rule({ scope: { type: 'brand', id: 2 } }), facts)).toBe(true);
    expect(ruleMatches(rule({ scope: { type: 'brand', id: 3 } }), facts)).toBe(false);
    expect(ruleMatches(rule({ scope: { type: 'county', id: 22071 } }), facts)).toBe(true);
    expect(ruleMatches(rule({ scope: { type: 'site', id: 6 } }), facts)).toBe(false);
    expect(ruleMatches(rule({ scope: { type: 'site', id: 5 } }), { ...facts, siteId: null })).toBe(false);
  });
  it('quiet hours in the user zone, across midnight', () => {
    const q = { from: '22:00', to: '07:00', timeZone: 'America/Chicago' };
    // 03:30 UTC = 21:30 CST: outside; 04:00 UTC = 22:00 CST: inside until 13:00 UTC (07:00 CST).
    expect(quietUntil(q, new Date('2026-11-24T03:30:00Z'))).toBeNull();
    expect(quietUntil(q, new Date('2026-11-24T04:00:00Z'))?.toISOString()).toBe('2026-11-24T13:00:00.000Z');
    expect(quietUntil(q, new Date('2026-11-24T12:59:00Z'))?.toISOString()).toBe('2026-11-24T13:00:00.000Z');
    expect(quietUntil(q, new Date('2026-11-24T13:00:00Z'))).toBeNull();
    expect(quietUntil({ ...q, timeZone: 'UTC' }, new Date('2026-11-24T04:00:00Z'))?.toISOString()).toBe(
      '2026-11-24T07:00:00.000Z',
    );
  });
  it('quiet hours hold mail, SMS and push until they end; in-app is never held', () => {
    const now = new Date('2026-11-24T04:00:00Z');
    const d = deliveriesFor(
      [rule({ channels: ['inApp', 'email', 'sms'], quietHours: { from: '22:00', to: '07:00', timeZone: 'America/Chicago' } })],
      facts,
      user,
      now,
    );
    expect(d.map((x) => [x.channel, x.dueAt.toISOString()])).toEqual([
      ['inApp', now.toISOString()],
      ['email', '2026-11-24T13:00:00.000Z'],
      ['sms', '2026-11-24T13:00:00.000Z'],
    ]);
  });
  it('the notification switches gate the channels; SMS needs a phone', () => {
    const d = (u: typeof user) =>
      deliveriesFor([rule({ channels: ['email', 'sms'] })], facts, u, new Date()).map((x) => x.channel);
    expect(d({ ...user, notifyEmail: false })).toEqual(['sms']);
    expect(d({ ...user, phone: '' })).toEqual(['email']);
    expect(d({ ...user, notifyPhone: false })).toEqual(['email']);
  });
  it('digest rules and info incidents wait for the next 08:00 in the zone; one delivery per channel', () => {
    const now = new Date('2026-11-24T15:00:00Z'); // 09:00 CST
    expect(nextDigestAt(now, 'America/Chicago').toISOString()).toBe('2026-11-25T14:00:00.000Z');
    const d = deliveriesFor([rule({ channels: ['email'] })], { ...facts, severity: 'info' }, user, now);
    expect(d).toEqual([{ channel: 'email', dueAt: new Date('2026-11-25T08:00:00Z'), digest: true }]);
    // An immediate rule and a digest rule for the same channel: the immediate one wins.
    const both = deliveriesFor([rule({ channels: ['email'], digest: true }), rule({ channels: ['email'] })], facts, user, now);
    expect(both).toEqual([{ channel: 'email', dueAt: now, digest: false }]);
  });
});

describe('escalation timing', () => {
  const policy: EscalationPolicy = {
    afterMinutes: 30,
    repeatMinutes: 60,
    steps: [
      { userId: 2, channels: ['sms'] },
      { userId: 3, channels: ['email'] },
    ],
  };
  it('nothing before M minutes; the first step at M; the next every R; the last step repeats', () => {
    const c = clock();
    const incident = { openedAt: c.now(), state: 'open' as const };
    c.advance(29);
    expect(escalationsDue(incident, policy, 0, c.now())).toEqual([]);
    c.advance(1);
    expect(escalationsDue(incident, policy, 0, c.now()).map((e) => [e.n, e.step.userId])).toEqual([[0, 2]]);
    c.advance(60);
    expect(escalationsDue(incident, policy, 1, c.now()).map((e) => [e.n, e.step.userId])).toEqual([[1, 3]]);
    c.advance(60);
    expect(escalationsDue(incident, policy, 2, c.now()).map((e) => [e.n, e.step.userId])).toEqual([[2, 3]]);
    expect(nextEscalationAt(incident, policy, 3)?.toISOString()).toBe('2026-11-23T15:30:00.000Z');
  });
  it('stops once acknowledged; a sleeping worker catches up each missed number once', () => {
    const c = clock();
    const incident = { openedAt: c.now(), state: 'open' as const };
    c.advance(150);
    expect(escalationsDue(incident, policy, 0, c.now()).map((e) => e.n)).toEqual([0, 1, 2]);
    expect(escalationsDue({ ...incident, state: 'acknowledged' }, policy, 0, c.now())).toEqual([]);
    expect(nextEscalationAt({ ...incident, state: 'acknowledged' }, policy, 0)).toBeNull();
  });
});
