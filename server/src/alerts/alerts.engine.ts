import {
  ACCOUNT_CONDITIONS,
  ALERT_CONDITIONS,
  BATTERY_TREND_DAYS,
  batteryForecast,
  conditionText,
  deliveriesFor,
  deviceFindings,
  escalationsDue,
  forecastDaysUntilEmpty,
  forecastWindow,
  HOURS_PER_WEEK,
  incidentKey,
  isFlapping,
  nextEscalationAt,
  placeAlert,
  reopenNoticeDue,
  severityOf,
  stepAlert,
  subscriptionFinding,
  warningFindings,
  worstSeverity,
  WARNING_CODES,
  type AlertCondition,
  type AlertSettings,
  type BatteryForecast,
  type Channel,
  type ConditionFinding,
  type EscalationPolicy,
  type Forecast,
  type IncidentNotice,
  type NotificationRule,
} from '@fleet/shared';
import { batchDayOf } from '@fleet/shared';
import type { AlertRow, AlertsRepository, DeviceEvalRow, IncidentRow } from './alerts.repository.ts';
import type { ChannelSet } from './channels.ts';
import type { Wakeup } from '@fleet/workers';

/**
 * The rules a user has until they save their own: every condition in their scope, in-app only (the bell
 * and the incident list; mail and SMS are asked for, not assumed).
 */
export const DEFAULT_RULES: NotificationRule[] = [
  { condition: 'ANY', scope: { type: 'all' }, channels: ['inApp'], quietHours: null, digest: false },
];

/** Conditions the check-in decides (its warning codes); the rest are the minute job's. */
const CHECKIN_CONDITIONS = new Set<AlertCondition>(WARNING_CODES);
/** Conditions evaluated only on the minute job's forecast passes (they read weeks of history). */
const FORECAST_CONDITIONS = new Set<AlertCondition>(['PUMP_RUN_DRY', 'BATTERY_FORECAST']);
const JOB_CONDITIONS = new Set<AlertCondition>(ALERT_CONDITIONS.filter((c) => !ACCOUNT_CONDITIONS.includes(c)));

export type AlertsEngineDeps = {
  repo: AlertsRepository;
  settings: AlertSettings;
  now: () => Date;
  channels: ChannelSet;
  /** The portal's address, for links in mails, SMS and pushes. */
  publicUrl: string;
  /** Pump forecasts' history (the maintenance feature's hour-of-week totals). */
  slotTotals?: (
    deviceIds: number[],
    since: Date,
    until: Date,
  ) => Promise<{ deviceId: number; pump: number; slot: number; ml: number }[]>;
  /** The battery forecast's history (the service day's daily minimums of each device, site-local days). */
  batteryMinimums?: (deviceIds: number[], since: Date) => Promise<{ deviceId: number; date: string; percent: number }[]>;
  log: (m: string, e?: unknown) => void;
  /** Told when notifications were recorded (the dispatcher runs now rather than at its next tick). */
  wake?: () => void;
  /**
   * Asks for a wake-up when something falls due later (wakeups.ts in @fleet/workers): `dispatch` when a
   * notification row is due at a later time (quiet hours, a digest, a retry), `escalate` when an open
   * incident's next escalation is. Set only after the transaction that recorded it committed.
   */
  wakeAt?: (w: Wakeup, now: Date) => void;
};

/** What a transaction recorded that falls due later: set as wake-ups once it committed. */
type Later = { due: Date[]; opened: { id: number; openedAt: Date; escalationsSent: number }[] };
const later = (): Later => ({ due: [], opened: [] });

const MINUTE = 60_000;

/**
 * The background side of alerts: evaluates conditions into alerts and incidents (hysteresis, grouping),
 * records notifications as rows (the outbox), escalates what nobody acknowledged, and dispatches due rows
 * through the channels. Every step takes `now` from deps.now, so tests move a clock.
 */
export function alertsEngine(deps: AlertsEngineDeps) {
  const { repo, settings } = deps;
  const wake = () => deps.wake?.();

  /** The wake-ups of what `l` recorded: each later due time, and each opened incident's next escalation. */
  async function arm(l: Later, now: Date) {
    if (!deps.wakeAt) return;
    for (const at of new Set(l.due.filter((d) => d > now).map((d) => d.getTime())))
      deps.wakeAt({ kind: 'dispatch', key: 'dispatch', at: new Date(at) }, now);
    if (!l.opened.length) return;
    const policies = (await repo.policies()).map((p) => p.policy).filter((p) => p.steps.length > 0);
    for (const i of l.opened)
      for (const policy of policies) {
        const at = nextEscalationAt({ openedAt: i.openedAt, state: 'open' }, policy, i.escalationsSent);
        if (at) deps.wakeAt({ kind: 'escalate', key: `escalate-${i.id}`, at: at > now ? at : now }, now);
      }
  }
  const armed = (l: Later, now: Date) =>
    arm(l, now).catch((err) => deps.log('alerts: setting a wake-up failed (the poll and the minute job remain)', err));

  /** The notice an incident's notification carries, in words. */
  function noticeOf(i: IncidentRow, kind: IncidentNotice['kind'], at: Date): IncidentNotice {
    return {
      id: i.id,
      state: i.state,
      severity: i.severity,
      reason: i.reason,
      site: i.siteName ?? i.siteAddress ?? null,
      at: at.toISOString(),
      kind,
    };
  }

  /**
   * Records, for every user who may see the incident and whose rules ask for it, one notification per
   * channel under the key incident:{id}:user:{uid}:{channel}:{kind}: a second raise of the same incident
   * (another device joining it) records nothing for those already told.
   */
  async function notify(
    tx: AlertsRepository,
    incidentId: number,
    kind: string,
    now: Date,
    l: Later,
    flapping = false,
  ): Promise<number> {
    const [incident] = await tx.incidents({ scope: undefined, viewerId: 0, ids: [incidentId] });
    if (!incident) return 0;
    const places = await tx.incidentPlaces(incidentId);
    const facts = { condition: incident.condition, severity: incident.severity, siteId: incident.siteId, ...places };
    const rows = [];
    // A reopening tells again only those not told of this incident within the grouping window (flap damping).
    const last = kind.startsWith('reopen') ? await tx.lastNotices(incidentId) : null;
    for (const user of await tx.recipients(incidentId)) {
      const rules = user.rules ?? DEFAULT_RULES;
      for (const d of deliveriesFor(
        rules,
        facts,
        { notifyEmail: user.notifyEmail, notifyPhone: user.notifyPhone, phone: user.phone, hasPushSubscription: user.hasPush },
        now,
      )) {
        if (
          last &&
          !reopenNoticeDue(Number(kind.slice('reopen'.length)), last.get(`${user.id}:${d.channel}`), now, settings, flapping)
        )
          continue;
        rows.push({
          key: `incident:${incidentId}:user:${user.id}:${d.channel}:${kind}`,
          incidentId,
          userId: user.id,
          channel: d.channel,
          kind,
          digest: d.digest,
          dueAt: d.dueAt,
        });
        l.due.push(d.dueAt);
      }
    }
    return tx.insertNotifications(rows);
  }

  /** The incident's severity and reason from its active alerts: "Offline at 20 devices: ..." */
  async function summarise(tx: AlertsRepository, incidentId: number) {
    const active = await tx.alertSummaries(incidentId);
    if (!active.length) return;
    const severity = worstSeverity(active.map((a) => severityOf(a.condition)));
    const serials = [...new Set(active.map((a) => a.serial).filter((s): s is string => !!s))];
    const first = active[0]!;
    const reason =
      serials.length > 1
        ? `${conditionText(first.condition)} at ${serials.length} devices: ${first.reason}`
        : serials.length === 1
          ? `${first.reason} (${serials[0]})`
          : first.reason;
    await tx.updateIncident(incidentId, { severity, reason });
  }

  /**
   * One subject's (a device's or an account's) conditions at `now`: each condition in `evaluated` steps
   * its alert (shared/src/rules/alerts/hysteresis.ts); conditions not evaluated here keep theirs. One
   * transaction per subject; the incident keys it raises into are locked in order.
   */
  async function evaluateSubject(
    subject: { deviceId: number | null; accountId: number | null; serial: string | null; siteId: number | null },
    findings: ConditionFinding[],
    latest: AlertRow[],
    evaluated: Set<AlertCondition>,
    now: Date,
  ): Promise<number> {
    const found = new Map(findings.filter((f) => evaluated.has(f.condition)).map((f) => [f.condition, f]));
    const where = subject.serial ? ` at ${subject.serial}` : '';
    /**
     * Flap state (isFlapping): only asked of a device's cleared alert whose condition is back after the
     * grouping window (otherwise stepAlert reopens or raises without it), from the times its alerts cleared
     * (alerts.clear_times, written by clearAlert below).
     */
    const flappingOf = async (r: AlertsRepository, latestNow: AlertRow[]) => {
      const out = new Set<AlertCondition>();
      if (subject.deviceId === null) return out;
      for (const a of latestNow) {
        if (!evaluated.has(a.condition) || a.state !== 'cleared' || !found.has(a.condition) || !a.clearedAt) continue;
        if (now.getTime() - a.clearedAt.getTime() <= settings.groupWindowMinutes * MINUTE) continue;
        const since = new Date(now.getTime() - settings.flapWindowMinutes * MINUTE);
        const clears = await r.clearTimes(subject.deviceId, a.condition, since);
        if (isFlapping(clears, now, settings)) out.add(a.condition);
      }
      return out;
    };
    const stepsOf = (latestNow: AlertRow[], flapping: Set<AlertCondition>) => {
      const tracks = new Map(latestNow.filter((a) => evaluated.has(a.condition)).map((a) => [a.condition, a]));
      return [...new Set([...found.keys(), ...tracks.keys()])]
        .sort()
        .map((c) => {
          const prev = tracks.get(c) ?? null;
          const r = stepAlert(prev, found.has(c), now, settings, flapping.has(c));
          return { c, prev, next: r.track, step: r.step };
        })
        .filter((x) => x.step !== 'none');
    };
    // Most evaluations change nothing (a device still fine, an alert still active): no transaction then.
    // (Without the flap state: a flapping return is a raise then, never 'none'.)
    if (!stepsOf(latest, new Set()).length) return 0;
    let recorded = 0;
    const l = later();
    await repo.transaction(async (tx) => {
      // The check-in's evaluation and the minute job may look at one device at once: one at a time, and
      // each decides from the alerts as they are under the lock.
      const subjectKey = subject.deviceId !== null ? `device:${subject.deviceId}` : `account:${subject.accountId}`;
      await tx.lockKey(subjectKey);
      const latestNow =
        subject.deviceId !== null
          ? await tx.latestAlerts({ deviceIds: [subject.deviceId] })
          : await tx.latestAlerts({ accountIds: [subject.accountId!] });
      const flapping = await flappingOf(tx, latestNow);
      const changing = stepsOf(latestNow, flapping);
      const keys = changing
        .filter((x) => x.step === 'raise')
        .map((x) => incidentKey({ condition: x.c, siteId: subject.siteId, accountId: subject.accountId, serial: subject.serial }))
        .sort();
      for (const key of new Set(keys)) await tx.lockKey(key);
      for (const s of changing) {
        const finding = found.get(s.c);
        if (s.step === 'hold') {
          await tx.setAbsentSince(s.prev!.id, s.next?.absentSince ?? null);
        } else if (s.step === 'clear') {
          await tx.clearAlert(s.prev!.id, now, { since: new Date(now.getTime() - settings.flapWindowMinutes * MINUTE) });
          await tx.event(
            s.prev!.incidentId,
            now,
            'alert',
            `Cleared: ${conditionText(s.c)}${where} (gone for ${settings.holdMinutes} min)`,
          );
          if ((await tx.activeAlertCount(s.prev!.incidentId)) === 0) {
            const [i] = await tx.incidents({ scope: undefined, viewerId: 0, ids: [s.prev!.incidentId] });
            if (i && i.state !== 'resolved') {
              await tx.updateIncident(i.id, { state: 'resolved', resolvedAt: now, resolvedBy: null, resolvedByHand: false });
              await tx.event(i.id, now, 'resolved', 'Resolved: every alert cleared');
            }
          } else await summarise(tx, s.prev!.incidentId);
        } else if (s.step === 'reopen') {
          await tx.reactivateAlert(s.prev!.id, finding!.reason);
          const [i] = await tx.incidents({ scope: undefined, viewerId: 0, ids: [s.prev!.incidentId] });
          if (i?.state === 'resolved' && !i.resolvedByHand) {
            await tx.updateIncident(i.id, {
              state: 'open',
              resolvedAt: null,
              resolvedBy: null,
              acknowledgedAt: null,
              acknowledgedBy: null,
              reopen: true,
              escalationsSent: 0,
            });
            const flap = flapping.has(s.c) ? ' (flapping)' : '';
            await tx.event(i.id, now, 'reopened', `Reopened: ${finding!.reason}${where}${flap}`);
            await summarise(tx, i.id);
            l.opened.push({ id: i.id, openedAt: i.openedAt, escalationsSent: 0 });
            recorded += await notify(tx, i.id, `reopen${i.reopenCount + 1}`, now, l, flapping.has(s.c));
          } else if (i && i.state !== 'resolved') {
            await tx.event(i.id, now, 'alert', `Back: ${finding!.reason}${where}`);
            await summarise(tx, i.id);
          } else {
            // Resolved by hand meanwhile: the alert comes back as a new raise below, into a new incident.
            await tx.clearAlert(s.prev!.id, now);
            recorded += await raise(tx, s.c, finding!, subject, now, l);
          }
        } else if (s.step === 'raise') {
          recorded += await raise(tx, s.c, finding!, subject, now, l);
        }
      }
    });
    await armed(l, now);
    return recorded;
  }

  async function raise(
    tx: AlertsRepository,
    condition: AlertCondition,
    finding: ConditionFinding,
    subject: { deviceId: number | null; accountId: number | null; serial: string | null; siteId: number | null },
    now: Date,
    l: Later,
  ): Promise<number> {
    const key = incidentKey({ condition, siteId: subject.siteId, accountId: subject.accountId, serial: subject.serial });
    await tx.lockKey(key);
    const where = subject.serial ? ` at ${subject.serial}` : '';
    const place = placeAlert(await tx.incidentsByKey(key), key, now, settings);
    let incidentId: number;
    let kind = 'first';
    if ('join' in place) {
      incidentId = place.join;
      await tx.event(incidentId, now, 'alert', `Raised: ${finding.reason}${where}`);
    } else if ('reopen' in place) {
      incidentId = place.reopen;
      const [i] = await tx.incidents({ scope: undefined, viewerId: 0, ids: [incidentId] });
      await tx.updateIncident(incidentId, {
        state: 'open',
        resolvedAt: null,
        resolvedBy: null,
        acknowledgedAt: null,
        acknowledgedBy: null,
        reopen: true,
        escalationsSent: 0,
      });
      await tx.event(incidentId, now, 'reopened', `Reopened: ${finding.reason}${where}`);
      kind = `reopen${(i?.reopenCount ?? 0) + 1}`;
      if (i) l.opened.push({ id: incidentId, openedAt: i.openedAt, escalationsSent: 0 });
    } else {
      incidentId = await tx.insertIncident({
        key,
        condition,
        severity: severityOf(condition),
        reason: finding.reason,
        siteId: subject.siteId,
        accountId: subject.accountId,
        openedAt: now,
      });
      await tx.event(incidentId, now, 'raised', `Raised: ${finding.reason}${where}`);
      l.opened.push({ id: incidentId, openedAt: now, escalationsSent: 0 });
    }
    await tx.insertAlert({
      incidentId,
      deviceId: subject.deviceId,
      accountId: subject.accountId,
      condition,
      reason: finding.reason,
      raisedAt: now,
    });
    await summarise(tx, incidentId);
    // A device joining an incident may bring new recipients (a client of its brand): they get their first notice.
    return notify(tx, incidentId, kind, now, l);
  }

  async function forecastsOf(devices: DeviceEvalRow[], now: Date): Promise<Map<number, { pump: 1 | 2; forecast: Forecast }[]>> {
    const out = new Map<number, { pump: 1 | 2; forecast: Forecast }[]>();
    if (!deps.slotTotals || !devices.length) return out;
    const { start, end } = forecastWindow(now);
    const slots = await deps.slotTotals(
      devices.map((d) => d.id),
      start,
      end,
    );
    for (const d of devices) {
      const list: { pump: 1 | 2; forecast: Forecast }[] = [];
      for (const pump of [1, 2] as const) {
        if ((pump === 1 ? d.leftPumpType : d.rightPumpType) === 'Unspecified') continue;
        const mlBySlot = new Array<number>(HOURS_PER_WEEK).fill(0);
        for (const s of slots) if (s.deviceId === d.id && s.pump === pump) mlBySlot[s.slot] = s.ml;
        list.push({
          pump,
          forecast: forecastDaysUntilEmpty({
            remainingMl: pump === 1 ? d.volumeRemain : d.volumeRemain2,
            mlBySlot,
            now,
            observedFrom: null,
          }),
        });
      }
      out.set(d.id, list);
    }
    return out;
  }

  /** Each device's battery forecast from its daily minimums (issue 48's rule), in its site's zone. */
  async function batteriesOf(devices: DeviceEvalRow[], now: Date): Promise<Map<number, BatteryForecast>> {
    const out = new Map<number, BatteryForecast>();
    if (!deps.batteryMinimums || !devices.length) return out;
    const rows = await deps.batteryMinimums(
      devices.map((d) => d.id),
      new Date(now.getTime() - (BATTERY_TREND_DAYS + 1) * 86_400_000),
    );
    const days = new Map<number, { date: string; percent: number }[]>();
    for (const r of rows) days.set(r.deviceId, [...(days.get(r.deviceId) ?? []), { date: r.date, percent: r.percent }]);
    for (const d of devices) {
      const list = days.get(d.id);
      if (list)
        out.set(
          d.id,
          batteryForecast(
            list.sort((a, b) => a.date.localeCompare(b.date)),
            now,
            d.timeZone ?? 'UTC',
          ),
        );
    }
    return out;
  }

  async function evaluateDevices(
    devices: DeviceEvalRow[],
    evaluated: Set<AlertCondition>,
    now: Date,
    withForecasts: boolean,
  ): Promise<number> {
    const latest = await repo.latestAlerts({ deviceIds: devices.map((d) => d.id) });
    const [forecasts, batteries] = withForecasts
      ? await Promise.all([forecastsOf(devices, now), batteriesOf(devices, now)])
      : [new Map(), new Map<number, BatteryForecast>()];
    let recorded = 0;
    for (const d of devices) {
      const findings =
        evaluated === CHECKIN_CONDITIONS
          ? warningFindings(d.warningLists)
          : deviceFindings({ ...d, forecasts: forecasts.get(d.id), battery: batteries.get(d.id) }, now, settings);
      // Forecasts not computed this pass: PUMP_RUN_DRY and BATTERY_FORECAST keep their alerts as they are.
      const scope = withForecasts ? evaluated : new Set([...evaluated].filter((c) => !FORECAST_CONDITIONS.has(c)));
      try {
        recorded += await evaluateSubject(
          { deviceId: d.id, accountId: null, serial: d.serial, siteId: d.siteId },
          findings,
          latest.filter((a) => a.deviceId === d.id),
          scope,
          now,
        );
      } catch (err) {
        deps.log(`alerts: evaluating ${d.serial} failed`, err);
      }
    }
    if (recorded) wake();
    return recorded;
  }

  /** Serials checked in since the last flush (the check-in path only adds to this set). */
  const checkedIn = new Set<string>();
  let flushTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;

  async function flushCheckins() {
    flushTimer = undefined;
    if (flushing) return void (await flushing, schedule());
    const serials = [...checkedIn];
    checkedIn.clear();
    if (!serials.length) return;
    flushing = (async () => {
      try {
        for (let i = 0; i < serials.length; i += 500)
          await evaluateDevices(
            await repo.devices({ serials: serials.slice(i, i + 500) }),
            CHECKIN_CONDITIONS,
            deps.now(),
            false,
          );
      } catch (err) {
        deps.log('alerts: check-in evaluation failed', err);
      }
    })().finally(() => (flushing = undefined));
    await flushing;
  }
  function schedule() {
    if (!flushTimer && checkedIn.size) flushTimer = setTimeout(() => void flushCheckins(), 50);
  }

  let forecastPass = 0;

  return {
    /**
     * The check-in path, after its answer: the device's warning codes are evaluated within ~50 ms, in a
     * batch with the other check-ins of that moment, never before the device has its answer.
     */
    deviceCheckedIn(serial: string) {
      checkedIn.add(serial);
      schedule();
    },
    /** Evaluates the check-ins noted so far now (tests, shutdown). */
    flushCheckins: async () => {
      clearTimeout(flushTimer);
      await flushing;
      await flushCheckins();
    },
    /** The warning codes of these devices now (the check-in's evaluation, called directly). */
    async evaluateWarnings(serials: string[]) {
      return evaluateDevices(await repo.devices({ serials }), CHECKIN_CONDITIONS, deps.now(), false);
    },

    /**
     * The minute job: offline, run-dry (every `forecastEvery`th pass: forecasts read four weeks of pump
     * events), expiring batches, warning alerts whose hold ran out, overdue subscriptions.
     */
    async evaluateFleet(opts: { forecastEvery?: number; forecasts?: boolean } = {}) {
      const now = deps.now();
      const withForecasts = opts.forecasts ?? forecastPass++ % (opts.forecastEvery ?? 15) === 0;
      const ids = await repo.deviceIdsToEvaluate(now, settings.batchExpiringDays, settings.groupWindowMinutes, withForecasts);
      let recorded = 0;
      for (let i = 0; i < ids.length; i += 500)
        recorded += await evaluateDevices(await repo.devices({ ids: ids.slice(i, i + 500) }), JOB_CONDITIONS, now, withForecasts);
      const accounts = await repo.accountsToEvaluate(now, settings.groupWindowMinutes);
      const latest = await repo.latestAlerts({ accountIds: accounts.map((a) => a.userId) });
      const overdue = new Set<AlertCondition>(['SUBSCRIPTION_OVERDUE']);
      for (const a of accounts) {
        const f = subscriptionFinding(a.bills, batchDayOf(now));
        recorded += await evaluateSubject(
          { deviceId: null, accountId: a.userId, serial: null, siteId: null },
          f ? [f] : [],
          latest.filter((l) => l.accountId === a.userId),
          overdue,
          now,
        );
      }
      if (recorded) wake();
      return { devices: ids.length, recorded };
    },

    /**
     * Escalation (shared/src/rules/alerts/escalation.ts) under every distributor organisation's policy:
     * each due number recorded once per step user and channel (key ...:esc{n}); `escalations_sent` moves
     * on in the same transaction, and acknowledging stops what is not yet due.
     */
    async escalate() {
      const now = deps.now();
      const policies = (await repo.policies()).map((p) => p.policy).filter((p): p is EscalationPolicy => p.steps.length > 0);
      if (!policies.length) return 0;
      const earliest = Math.min(...policies.map((p) => p.afterMinutes));
      let recorded = 0;
      for (const candidate of await repo.incidentsToEscalate(new Date(now.getTime() - earliest * MINUTE))) {
        // The next number of an incident still open after this pass: its wake-up (a no-op when already set).
        const next = later();
        recorded += await repo.transaction(async (tx) => {
          const locked = await tx.lockIncident(candidate.id);
          if (locked?.state !== 'open') return 0;
          const [i] = await tx.incidents({ scope: undefined, viewerId: 0, ids: [candidate.id] });
          if (!i) return 0;
          let n = 0;
          let sent = i.escalationsSent;
          for (const policy of policies) {
            for (const due of escalationsDue(i, policy, i.escalationsSent, now)) {
              const users = await tx.recipients(i.id, [due.step.userId]);
              const user = users[0];
              if (!user) continue; // no longer may see it (or deactivated)
              const rows = due.step.channels.map((channel) => ({
                key: `incident:${i.id}:user:${user.id}:${channel}:esc${due.n}`,
                incidentId: i.id,
                userId: user.id,
                channel,
                kind: `esc${due.n}`,
                digest: false,
                dueAt: now,
              }));
              n += await tx.insertNotifications(rows);
              await tx.event(
                i.id,
                now,
                'escalated',
                `Escalated to ${user.username} by ${due.step.channels.map(channelName).join(', ')}: not acknowledged within ${Math.round((due.dueAt.getTime() - i.openedAt.getTime()) / MINUTE)} min`,
              );
              sent = Math.max(sent, due.n + 1);
            }
          }
          if (sent !== i.escalationsSent) await tx.updateIncident(i.id, { escalationsSent: sent });
          next.opened.push({ id: i.id, openedAt: i.openedAt, escalationsSent: sent });
          return n;
        });
        await armed(next, now);
      }
      if (recorded) wake();
      return recorded;
    },

    /**
     * Sets the wake-ups of everything the rows say falls due later: pending notifications' due times and every
     * open incident's next escalation. Run when a process starts its loop and when Redis is back after a
     * restart (wake-ups are not the truth; the rows are).
     */
    async rearm() {
      const now = deps.now();
      const l = later();
      l.due = await repo.pendingDueTimes(now, 1000);
      l.opened = await repo.incidentsToEscalate(now);
      await arm(l, now);
    },

    /**
     * Sends due notifications (claimed with SKIP LOCKED, so any number of processes share the work).
     * An escalation or reopen notice of an incident acknowledged or resolved meanwhile is skipped, and
     * so is a held notice (quiet hours, digest) of a resolved one. A digest row sends the user's due
     * digest rows of that channel as one message.
     */
    async dispatch(opts: { limit?: number } = {}) {
      const now = deps.now();
      const due = await repo.claimDue(now, 60_000, opts.limit ?? 200);
      let sent = 0;
      for (const n of due) {
        try {
          const [incident] = await repo.incidents({ scope: undefined, viewerId: 0, ids: [n.incidentId] });
          const user = await repo.user(n.userId);
          if (!incident || !user) {
            await repo.finishNotification(n.id, 'skipped', now, 'incident or user gone');
            continue;
          }
          const late = n.kind.startsWith('esc')
            ? incident.state !== 'open'
            : incident.state === 'resolved' && n.channel !== 'inApp';
          if (late) {
            await repo.finishNotification(n.id, 'skipped', now, `incident ${incident.state}`);
            continue;
          }
          const kind: IncidentNotice['kind'] = n.kind.startsWith('esc')
            ? 'escalated'
            : n.kind.startsWith('reopen')
              ? 'reopened'
              : 'raised';
          const word =
            kind === 'escalated'
              ? 'Escalated'
              : kind === 'reopened'
                ? 'Reopened'
                : incident.severity === 'critical'
                  ? 'Critical'
                  : incident.severity === 'warning'
                    ? 'Warning'
                    : 'Info';
          const place = incident.siteName || incident.siteAddress || 'your account';
          const subject = `${word}: ${conditionText(incident.condition)} at ${place}`;
          const text = [
            `${incident.reason}`,
            '',
            `Site: ${place}`,
            incident.serials.length ? `Devices: ${incident.serials.join(', ')}` : '',
            `Opened: ${incident.openedAt.toISOString()}`,
          ]
            .filter(Boolean)
            .join('\n');
          const outcome = await deps.channels[n.channel as Channel].send({
            key: n.key,
            notificationId: n.id,
            channel: n.channel as Channel,
            user,
            incident: noticeOf(incident, kind, now),
            subject,
            text,
            url: `${deps.publicUrl.replace(/\/$/, '')}/incidents/${incident.id}`,
          });
          await repo.transaction(async (tx) => {
            await tx.finishNotification(n.id, outcome, now);
            if (outcome === 'sent')
              await tx.event(
                incident.id,
                now,
                'notified',
                `Notified ${user.username} by ${channelName(n.channel as Channel)}${n.kind.startsWith('esc') ? ' (escalation)' : ''}`,
              );
          });
          if (outcome === 'sent') sent++;
        } catch (err) {
          deps.log(`alerts: ${n.channel} notification ${n.key} failed (attempt ${n.attempts})`, err);
          if (n.attempts >= 5)
            await repo.finishNotification(n.id, 'failed', now, String((err as Error)?.message ?? err).slice(0, 500));
          else {
            const retryAt = new Date(now.getTime() + 15_000 * 2 ** (n.attempts - 1));
            await repo.retryNotification(n.id, retryAt, String((err as Error)?.message ?? err));
            await armed({ due: [retryAt], opened: [] }, now);
          }
        }
      }
      return { claimed: due.length, sent };
    },
  };
}
export type AlertsEngine = ReturnType<typeof alertsEngine>;

const CHANNEL_NAMES: Record<Channel, string> = { inApp: 'in-app', email: 'email', sms: 'SMS', push: 'push' };
export const channelName = (c: Channel) => CHANNEL_NAMES[c] ?? c;
