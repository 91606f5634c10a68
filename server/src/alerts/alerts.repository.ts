import { sql, type SQL } from 'drizzle-orm';
import type { AlertCondition, EscalationPolicy, IncidentState, NotificationRule, Severity } from '@fleet/shared';
import type { Db } from '../db/client.ts';

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const iso = (d: Date) => d.toISOString();
const date = (v: unknown): Date | null => (v === null || v === undefined ? null : v instanceof Date ? v : new Date(String(v)));
const ids = (list: readonly number[]) =>
  sql`(${sql.join(
    list.map((id) => sql`${id}`),
    sql`, `,
  )})`;

/** One device as the conditions read it (shared/src/rules/alerts/conditions.ts) and where it stands. */
export type DeviceEvalRow = {
  id: number;
  serial: string;
  siteId: number | null;
  brandId: number | null;
  countyId: number | null;
  timeZone: string | null;
  warningLists: string[];
  isOnline: boolean;
  lastSeenAt: Date | null;
  poweroffTime: string | null;
  wakeup1Time: string | null;
  leftPumpType: string;
  rightPumpType: string;
  volumeRemain: number;
  volumeRemain2: number;
  batches: { batchNo: string; expireDate: string; isRecalled: boolean }[];
};

/** The latest alert of one subject (device or account) and condition. */
export type AlertRow = {
  id: number;
  incidentId: number;
  deviceId: number | null;
  accountId: number | null;
  condition: AlertCondition;
  state: 'active' | 'cleared';
  absentSince: Date | null;
  clearedAt: Date | null;
};

export type IncidentRow = {
  id: number;
  key: string;
  condition: AlertCondition;
  severity: Severity;
  state: IncidentState;
  reason: string;
  siteId: number | null;
  accountId: number | null;
  openedAt: Date;
  acknowledgedAt: Date | null;
  acknowledgedBy: string | null;
  resolvedAt: Date | null;
  resolvedByHand: boolean;
  reopenCount: number;
  escalationsSent: number;
  siteName: string | null;
  siteAddress: string | null;
  timezoneId: string | null;
  serials: string[];
};

export type RecipientRow = {
  id: number;
  email: string;
  username: string;
  phone: string;
  notifyEmail: boolean;
  notifyPhone: boolean;
  rules: NotificationRule[] | null;
  hasPush: boolean;
};

export type DueNotification = {
  id: number;
  key: string;
  incidentId: number;
  userId: number;
  channel: string;
  kind: string;
  digest: boolean;
  attempts: number;
};

export type TimelineRow = { incidentId: number; at: Date; kind: string; text: string; by: string | null };

const incidentColumns = sql`
  i.id, i.key, i.condition, i.severity, i.state, i.reason, i.site_id as "siteId", i.account_id as "accountId",
  i.opened_at as "openedAt", i.acknowledged_at as "acknowledgedAt", ack.username as "acknowledgedBy",
  i.resolved_at as "resolvedAt", i.resolved_by_hand as "resolvedByHand", i.reopen_count as "reopenCount",
  i.escalations_sent as "escalationsSent", g.name as "siteName", g.address as "siteAddress", g.timezone_id as "timezoneId",
  coalesce((select array_agg(distinct d.serial order by d.serial) from alerts a join devices d on d.id = a.device_id where a.incident_id = i.id), '{}') as serials`;

function toIncident(r: Record<string, unknown>): IncidentRow {
  return {
    ...(r as unknown as IncidentRow),
    id: Number(r.id),
    siteId: r.siteId === null ? null : Number(r.siteId),
    accountId: r.accountId === null ? null : Number(r.accountId),
    openedAt: date(r.openedAt)!,
    acknowledgedAt: date(r.acknowledgedAt),
    resolvedAt: date(r.resolvedAt),
    reopenCount: Number(r.reopenCount),
    escalationsSent: Number(r.escalationsSent),
    serials: (r.serials as string[] | null) ?? [],
  };
}

/** The SQL of alerts, incidents and their notifications. Built on a database or on a transaction. */
export function alertsRepository(db: Db): AlertsRepository {
  return {
    ...queries(db),
    /** Runs `fn` in one transaction, with a repository bound to it: all or nothing. */
    transaction: (fn) => db.transaction((tx) => fn(alertsRepository(tx as unknown as Db))),
  };
}
export type AlertsRepository = ReturnType<typeof queries> & {
  transaction<T>(fn: (repo: AlertsRepository) => Promise<T>): Promise<T>;
};

function queries(db: Db) {
  return {
    /**
     * Serialises the raising of alerts of one incident key (site and cause) across processes until the
     * transaction ends: two devices of one site going offline in the same second open one incident.
     */
    async lockKey(key: string) {
      await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`alerts:${key}`}))`);
    },

    /** Devices by id or serial with what the conditions read. */
    async devices(by: { ids?: number[]; serials?: string[] }): Promise<DeviceEvalRow[]> {
      const where = by.ids
        ? by.ids.length
          ? sql`d.id in ${ids(by.ids)}`
          : sql`false`
        : by.serials?.length
          ? sql`d.serial in (${sql.join(
              by.serials.map((s) => sql`${s}`),
              sql`, `,
            )})`
          : sql`false`;
      const rows = rowsOf<Record<string, unknown>>(
        await db.execute(sql`
          select d.id, d.serial, d.group_id as "siteId", d.brand_id as "brandId", g.location_id as "countyId", g.timezone_id as "timeZone",
            d.warning_lists as "warningLists", d.is_online as "isOnline", d.last_seen_at as "lastSeenAt",
            d.poweroff_time as "poweroffTime", d.wakeup1_time as "wakeup1Time", d.left_pump_type as "leftPumpType", d.right_pump_type as "rightPumpType",
            d.volume_remain as "volumeRemain", d.volume_remain2 as "volumeRemain2",
            coalesce((select json_agg(json_build_object('batchNo', b.batch_no, 'expireDate', b.expire_date, 'isRecalled', b.is_recalled))
              from batches b where b.id in (d.batch_id, d.batch2_id)), '[]') as batches
          from devices d left join device_groups g on g.id = d.group_id
          where ${where}`),
      );
      return rows.map((r) => ({
        ...(r as unknown as DeviceEvalRow),
        id: Number(r.id),
        siteId: r.siteId === null ? null : Number(r.siteId),
        brandId: r.brandId === null ? null : Number(r.brandId),
        countyId: r.countyId === null ? null : Number(r.countyId),
        lastSeenAt: date(r.lastSeenAt),
        warningLists: (typeof r.warningLists === 'string' ? JSON.parse(r.warningLists) : r.warningLists) as string[],
        batches: (typeof r.batches === 'string' ? JSON.parse(r.batches) : r.batches) as DeviceEvalRow['batches'],
      }));
    },

    /**
     * What the minute job looks at: placed devices that are offline, feed a batch expiring within
     * `expiringDays` or recalled, or have an alert that is active (to clear it) or cleared within the
     * window (to reopen it). Forecasts add every placed device with a pump (`withPumps`).
     */
    async deviceIdsToEvaluate(now: Date, expiringDays: number, windowMinutes: number, withPumps: boolean): Promise<number[]> {
      const rows = rowsOf<{ id: number }>(
        await db.execute(sql`
          select d.id from devices d
          where d.group_id is not null and (
            (not d.is_online and d.last_seen_at is not null)
            or exists (select 1 from batches b where b.id in (d.batch_id, d.batch2_id) and (b.is_recalled or b.expire_date <= (${iso(now)}::timestamptz + make_interval(days => ${expiringDays}))::date))
            ${withPumps ? sql`or d.left_pump_type <> 'Unspecified' or d.right_pump_type <> 'Unspecified' or exists (select 1 from battery_readings r where r.device_id = d.id and r.recorded_at >= ${iso(now)}::timestamptz - interval '15 days')` : sql``}
          )
          union
          select a.device_id from alerts a where a.device_id is not null and (a.state = 'active' or a.cleared_at >= ${iso(now)}::timestamptz - make_interval(mins => ${windowMinutes}))`),
      );
      return rows.map((r) => Number(r.id));
    },

    /** The latest alert of each condition of these devices (or these accounts). */
    async latestAlerts(by: { deviceIds?: number[]; accountIds?: number[] }): Promise<AlertRow[]> {
      const col = by.deviceIds ? sql.raw('device_id') : sql.raw('account_id');
      const list = by.deviceIds ?? by.accountIds ?? [];
      if (!list.length) return [];
      const rows = rowsOf<Record<string, unknown>>(
        await db.execute(sql`
          select distinct on (${col}, condition) id, incident_id as "incidentId", device_id as "deviceId", account_id as "accountId", condition, state,
            absent_since as "absentSince", cleared_at as "clearedAt"
          from alerts where ${col} in ${ids(list)}
          order by ${col}, condition, id desc`),
      );
      return rows.map((r) => ({
        ...(r as unknown as AlertRow),
        id: Number(r.id),
        incidentId: Number(r.incidentId),
        deviceId: r.deviceId === null ? null : Number(r.deviceId),
        accountId: r.accountId === null ? null : Number(r.accountId),
        absentSince: date(r.absentSince),
        clearedAt: date(r.clearedAt),
      }));
    },

    /** Accounts with an overdue bill, with their bills, and accounts whose overdue alert is active or recent. */
    async accountsToEvaluate(
      now: Date,
      windowMinutes: number,
    ): Promise<{ userId: number; bills: { status: string; dueDate: string | null; name: string }[] }[]> {
      const rows = rowsOf<{ user_id: number; bills: unknown }>(
        await db.execute(sql`
          with subjects as (
            select user_id from bills where status = 'OVERDUE'
            union select account_id from alerts where account_id is not null and (state = 'active' or cleared_at >= ${iso(now)}::timestamptz - make_interval(mins => ${windowMinutes}))
          )
          select s.user_id, coalesce((select json_agg(json_build_object('status', b.status, 'dueDate', b.due_date, 'name', b.name)) from bills b where b.user_id = s.user_id and b.status = 'OVERDUE'), '[]') as bills
          from subjects s`),
      );
      return rows.map((r) => ({
        userId: Number(r.user_id),
        bills: (typeof r.bills === 'string' ? JSON.parse(r.bills) : r.bills) as {
          status: string;
          dueDate: string | null;
          name: string;
        }[],
      }));
    },

    /** Incidents with this grouping key, newest first (the candidates of placeAlert). */
    async incidentsByKey(key: string) {
      const rows = rowsOf<Record<string, unknown>>(
        await db.execute(
          sql`select id, key, state, resolved_at as "resolvedAt", resolved_by_hand as "resolvedByHand" from incidents where key = ${key} order by id desc limit 5`,
        ),
      );
      return rows.map((r) => ({
        id: Number(r.id),
        key: String(r.key),
        state: r.state as IncidentState,
        resolvedAt: date(r.resolvedAt),
        resolvedByHand: Boolean(r.resolvedByHand),
      }));
    },

    async insertIncident(v: {
      key: string;
      condition: AlertCondition;
      severity: Severity;
      reason: string;
      siteId: number | null;
      accountId: number | null;
      openedAt: Date;
    }): Promise<number> {
      const [row] = rowsOf<{ id: number }>(
        await db.execute(sql`
          insert into incidents (key, condition, severity, reason, site_id, account_id, opened_at)
          values (${v.key}, ${v.condition}, ${v.severity}, ${v.reason}, ${v.siteId}, ${v.accountId}, ${iso(v.openedAt)}::timestamptz) returning id`),
      );
      return Number(row!.id);
    },

    async insertAlert(v: {
      incidentId: number;
      deviceId: number | null;
      accountId: number | null;
      condition: AlertCondition;
      reason: string;
      raisedAt: Date;
    }) {
      await db.execute(sql`
        insert into alerts (incident_id, device_id, account_id, condition, reason, raised_at)
        values (${v.incidentId}, ${v.deviceId}, ${v.accountId}, ${v.condition}, ${v.reason}, ${iso(v.raisedAt)}::timestamptz)`);
    },

    async setAbsentSince(alertId: number, since: Date | null) {
      await db.execute(sql`update alerts set absent_since = ${since ? iso(since) : null}::timestamptz where id = ${alertId}`);
    },

    /**
     * Clears an alert. `flap`: the clear counts for the flap state (its condition went away): it is added to
     * the alert's `clear_times`, whose clears before `flap.since` (out of the flap window) are dropped. An
     * alert only retired (its incident was resolved by hand, so its return opens a new one) counts none.
     */
    async clearAlert(alertId: number, at: Date, flap?: { since: Date }) {
      const clears = flap
        ? sql`, clear_times = array(select t from unnest(clear_times) t where t >= ${iso(flap.since)}::timestamptz order by t) || ${iso(at)}::timestamptz`
        : sql``;
      await db.execute(
        sql`update alerts set state = 'cleared', cleared_at = ${iso(at)}::timestamptz, absent_since = null${clears} where id = ${alertId}`,
      );
    },

    /** When a device's alerts of one condition cleared since `since` (the flap state's input, clear_times). */
    async clearTimes(deviceId: number, condition: AlertCondition, since: Date): Promise<Date[]> {
      const rows = rowsOf<{ at: unknown }>(
        await db.execute(sql`
          select t as at from alerts a, unnest(a.clear_times) t
          where a.device_id = ${deviceId} and a.condition = ${condition} and t >= ${iso(since)}::timestamptz`),
      );
      return rows.map((r) => date(r.at)!);
    },

    async reactivateAlert(alertId: number, reason: string) {
      await db.execute(
        sql`update alerts set state = 'active', cleared_at = null, absent_since = null, reason = ${reason} where id = ${alertId}`,
      );
    },

    /** Active alerts left in an incident. */
    async activeAlertCount(incidentId: number): Promise<number> {
      const [row] = rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from alerts where incident_id = ${incidentId} and state = 'active'`),
      );
      return Number(row?.n ?? 0);
    },

    /** The incident's severity and reason from its active alerts (its worst alert's reason first). */
    async alertSummaries(incidentId: number): Promise<{ condition: AlertCondition; reason: string; serial: string | null }[]> {
      return rowsOf<{ condition: AlertCondition; reason: string; serial: string | null }>(
        await db.execute(
          sql`select a.condition, a.reason, d.serial from alerts a left join devices d on d.id = a.device_id where a.incident_id = ${incidentId} and a.state = 'active' order by a.id`,
        ),
      );
    },

    async updateIncident(
      id: number,
      set: {
        severity?: Severity;
        reason?: string;
        state?: IncidentState;
        resolvedAt?: Date | null;
        resolvedBy?: number | null;
        resolvedByHand?: boolean;
        acknowledgedAt?: Date | null;
        acknowledgedBy?: number | null;
        reopen?: boolean;
        escalationsSent?: number;
      },
    ) {
      const parts: SQL[] = [];
      if (set.severity !== undefined) parts.push(sql`severity = ${set.severity}`);
      if (set.reason !== undefined) parts.push(sql`reason = ${set.reason}`);
      if (set.state !== undefined) parts.push(sql`state = ${set.state}`);
      if (set.resolvedAt !== undefined)
        parts.push(sql`resolved_at = ${set.resolvedAt ? iso(set.resolvedAt) : null}::timestamptz`);
      if (set.resolvedBy !== undefined) parts.push(sql`resolved_by = ${set.resolvedBy}`);
      if (set.resolvedByHand !== undefined) parts.push(sql`resolved_by_hand = ${set.resolvedByHand}`);
      if (set.acknowledgedAt !== undefined)
        parts.push(sql`acknowledged_at = ${set.acknowledgedAt ? iso(set.acknowledgedAt) : null}::timestamptz`);
      if (set.acknowledgedBy !== undefined) parts.push(sql`acknowledged_by = ${set.acknowledgedBy}`);
      if (set.reopen) parts.push(sql`reopen_count = reopen_count + 1`);
      if (set.escalationsSent !== undefined) parts.push(sql`escalations_sent = ${set.escalationsSent}`);
      if (!parts.length) return;
      await db.execute(sql`update incidents set ${sql.join(parts, sql`, `)} where id = ${id}`);
    },

    async event(incidentId: number, at: Date, kind: string, text: string, userId: number | null = null) {
      await db.execute(
        sql`insert into incident_events (incident_id, at, kind, text, user_id) values (${incidentId}, ${iso(at)}::timestamptz, ${kind}, ${text}, ${userId})`,
      );
    },

    /** Incidents with their site and serials; `scope` is deviceScope of the caller (undefined: every incident). */
    async incidents(filter: {
      scope: SQL | undefined;
      viewerId: number;
      ids?: number[];
      state?: IncidentState;
      severity?: Severity;
      siteId?: number;
      limit?: number;
      lock?: boolean;
    }): Promise<IncidentRow[]> {
      const conds: SQL[] = [];
      if (filter.ids) conds.push(filter.ids.length ? sql`i.id in ${ids(filter.ids)}` : sql`false`);
      if (filter.state) conds.push(sql`i.state = ${filter.state}`);
      if (filter.severity) conds.push(sql`i.severity = ${filter.severity}`);
      if (filter.siteId) conds.push(sql`i.site_id = ${filter.siteId}`);
      // In scope: an incident with a device the caller may see, or the caller's own account incident.
      if (filter.scope)
        conds.push(
          sql`(i.account_id = ${filter.viewerId} or exists (select 1 from alerts a join devices on devices.id = a.device_id where a.incident_id = i.id and ${filter.scope}))`,
        );
      const where = conds.length ? sql`where ${sql.join(conds, sql` and `)}` : sql``;
      const rows = rowsOf<Record<string, unknown>>(
        await db.execute(sql`
          select ${incidentColumns}
          from incidents i left join device_groups g on g.id = i.site_id left join users ack on ack.id = i.acknowledged_by
          ${where}
          order by (i.state = 'resolved'), i.opened_at desc, i.id desc
          limit ${filter.limit ?? 200}`),
      );
      return rows.map(toIncident);
    },

    /** Locks an incident's row for a state change (acknowledge, resolve). */
    async lockIncident(id: number): Promise<{ state: IncidentState } | undefined> {
      const [row] = rowsOf<{ state: IncidentState }>(
        await db.execute(sql`select state from incidents where id = ${id} for update`),
      );
      return row;
    },

    async timelines(incidentIds: number[]): Promise<TimelineRow[]> {
      if (!incidentIds.length) return [];
      const rows = rowsOf<Record<string, unknown>>(
        await db.execute(sql`
          select e.incident_id as "incidentId", e.at, e.kind, e.text, u.username as by
          from incident_events e left join users u on u.id = e.user_id
          where e.incident_id in ${ids(incidentIds)} order by e.incident_id, e.at, e.id`),
      );
      return rows.map((r) => ({
        incidentId: Number(r.incidentId),
        at: date(r.at)!,
        kind: String(r.kind),
        text: String(r.text),
        by: (r.by as string | null) ?? null,
      }));
    },

    /** Devices' brand and county ids of an incident (what rules' scopes match). */
    async incidentPlaces(incidentId: number): Promise<{ brandIds: number[]; countyIds: number[] }> {
      const [row] = rowsOf<{ brands: number[] | null; counties: number[] | null }>(
        await db.execute(sql`
          select array_agg(distinct d.brand_id) filter (where d.brand_id is not null) as brands, array_agg(distinct g.location_id) filter (where g.location_id is not null) as counties
          from alerts a join devices d on d.id = a.device_id left join device_groups g on g.id = d.group_id where a.incident_id = ${incidentId}`),
      );
      return { brandIds: (row?.brands ?? []).map(Number), countyIds: (row?.counties ?? []).map(Number) };
    },

    /**
     * Users who may see an incident (the scope rule of access/scope.ts, in SQL over its devices), with
     * their rules, switches and whether a browser of theirs subscribed to Web Push. Active accounts only.
     */
    async recipients(incidentId: number, userIds?: number[]): Promise<RecipientRow[]> {
      const rows = rowsOf<Record<string, unknown>>(
        await db.execute(sql`
          select u.id, u.email, u.username, u.phone, u.is_enable_notification_email as "notifyEmail", u.is_enable_notification_phone as "notifyPhone",
            r.rules, exists (select 1 from push_subscriptions p where p.user_id = u.id) as "hasPush"
          from users u left join notification_rules r on r.user_id = u.id, incidents i
          where i.id = ${incidentId} and u.activated ${userIds ? (userIds.length ? sql`and u.id in ${ids(userIds)}` : sql`and false`) : sql``} and (
            (u.user_type <> 'market-partner' and u.role = 'distributor')
            or u.id = i.account_id
            or (u.user_type <> 'market-partner' and u.role <> 'distributor' and exists (
              select 1 from alerts a join devices d on d.id = a.device_id join brand_clients bc on bc.brand_id = d.brand_id and bc.user_id = u.id where a.incident_id = i.id))
            or (u.user_type = 'market-partner' and exists (
              select 1 from alerts a join user_exclusive_devices x on x.device_id = a.device_id and x.user_id = u.id where a.incident_id = i.id))
          )
          order by u.id`),
      );
      return rows.map((r) => ({
        ...(r as unknown as RecipientRow),
        id: Number(r.id),
        rules: (typeof r.rules === 'string' ? JSON.parse(r.rules) : r.rules) as NotificationRule[] | null,
        hasPush: Boolean(r.hasPush),
      }));
    },

    /** When each recipient last had a first or reopen notice of an incident, by `${userId}:${channel}` (flap damping). */
    async lastNotices(incidentId: number): Promise<Map<string, Date>> {
      const rows = rowsOf<{ user_id: number; channel: string; at: string | Date }>(
        await db.execute(sql`
          select user_id, channel, max(due_at) as at from notifications
          where incident_id = ${incidentId} and (kind = 'first' or kind like 'reopen%')
          group by user_id, channel`),
      );
      return new Map(rows.map((r) => [`${Number(r.user_id)}:${r.channel}`, new Date(r.at)]));
    },

    /** Records notifications; one already recorded under the same key is left as it is (idempotency). Answers how many were new. */
    async insertNotifications(
      list: { key: string; incidentId: number; userId: number; channel: string; kind: string; digest: boolean; dueAt: Date }[],
    ): Promise<number> {
      if (!list.length) return 0;
      const values = list.map(
        (n) => sql`(${n.key}, ${n.incidentId}, ${n.userId}, ${n.channel}, ${n.kind}, ${n.digest}, ${iso(n.dueAt)}::timestamptz)`,
      );
      const rows = rowsOf<{ id: number }>(
        await db.execute(sql`
          insert into notifications (idempotency_key, incident_id, user_id, channel, kind, digest, due_at) values ${sql.join(values, sql`, `)}
          on conflict (idempotency_key) do nothing returning id`),
      );
      return rows.length;
    },

    /** The earliest pending notification's due time (the dispatcher's next wake-up). */
    async nextDue(): Promise<Date | null> {
      const [row] = rowsOf<{ at: unknown }>(
        await db.execute(sql`select min(due_at) as at from notifications where status = 'pending'`),
      );
      return date(row?.at);
    },

    /** The distinct later due times of pending notifications, soonest first (the wake-ups to re-arm). */
    async pendingDueTimes(now: Date, limit: number): Promise<Date[]> {
      return rowsOf<{ at: unknown }>(
        await db.execute(
          sql`select distinct due_at as at from notifications where status = 'pending' and due_at > ${iso(now)}::timestamptz order by 1 limit ${limit}`,
        ),
      ).map((r) => date(r.at)!);
    },

    /**
     * Claims due notifications for `leaseMs` (SKIP LOCKED: several workers share the work). A claim that
     * lapsed (its process died before recording the send) is claimed again: the channel's own key keeps
     * that from sending twice where the channel can (mail outbox, SMS file, push topic).
     */
    async claimDue(now: Date, leaseMs: number, limit: number): Promise<DueNotification[]> {
      const rows = rowsOf<Record<string, unknown>>(
        await db.execute(sql`
          update notifications set claimed_until = ${iso(new Date(now.getTime() + leaseMs))}::timestamptz, attempts = attempts + 1
          where id in (
            select id from notifications
            where status = 'pending' and due_at <= ${iso(now)}::timestamptz and (claimed_until is null or claimed_until < ${iso(now)}::timestamptz)
            order by due_at, id limit ${limit} for update skip locked)
          returning id, idempotency_key as key, incident_id as "incidentId", user_id as "userId", channel, kind, digest, attempts`),
      );
      return rows.map((r) => ({
        ...(r as unknown as DueNotification),
        id: Number(r.id),
        incidentId: Number(r.incidentId),
        userId: Number(r.userId),
        attempts: Number(r.attempts),
      }));
    },

    async finishNotification(id: number, status: 'sent' | 'skipped' | 'failed', at: Date, error?: string) {
      await db.execute(
        sql`update notifications set status = ${status}, sent_at = ${status === 'sent' ? iso(at) : null}::timestamptz, last_error = ${error ?? null}, claimed_until = null where id = ${id}`,
      );
    },

    async retryNotification(id: number, at: Date, error: string) {
      await db.execute(
        sql`update notifications set claimed_until = null, due_at = ${iso(at)}::timestamptz, last_error = ${error.slice(0, 500)} where id = ${id}`,
      );
    },

    /** Notification rows of the user's digest of one channel due by now (sent together). */
    async dueDigest(userId: number, channel: string, now: Date): Promise<number[]> {
      return rowsOf<{ id: number }>(
        await db.execute(
          sql`select id from notifications where user_id = ${userId} and channel = ${channel} and digest and status = 'pending' and due_at <= ${iso(now)}::timestamptz`,
        ),
      ).map((r) => Number(r.id));
    },

    async user(id: number): Promise<{ id: number; email: string; username: string; phone: string; company: string } | undefined> {
      const [row] = rowsOf<{ id: number; email: string; username: string; phone: string; company: string }>(
        await db.execute(sql`select id, email, username, phone, company from users where id = ${id}`),
      );
      return row;
    },

    async pushSubscriptions(userId: number): Promise<{ id: number; endpoint: string; p256dh: string; auth: string }[]> {
      return rowsOf<{ id: number; endpoint: string; p256dh: string; auth: string }>(
        await db.execute(sql`select id, endpoint, p256dh, auth from push_subscriptions where user_id = ${userId} order by id`),
      );
    },

    async savePushSubscription(userId: number, s: { endpoint: string; keys: { p256dh: string; auth: string } }) {
      await db.execute(sql`
        insert into push_subscriptions (user_id, endpoint, p256dh, auth) values (${userId}, ${s.endpoint}, ${s.keys.p256dh}, ${s.keys.auth})
        on conflict (endpoint) do update set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth`);
    },

    async deletePushSubscription(id: number) {
      await db.execute(sql`delete from push_subscriptions where id = ${id}`);
    },

    /** Open (unacknowledged) incidents old enough to escalate under the shortest policy. */
    async incidentsToEscalate(before: Date): Promise<{ id: number; openedAt: Date; escalationsSent: number }[]> {
      const rows = rowsOf<Record<string, unknown>>(
        await db.execute(
          sql`select id, opened_at as "openedAt", escalations_sent as "escalationsSent" from incidents where state = 'open' and opened_at <= ${iso(before)}::timestamptz order by id`,
        ),
      );
      return rows.map((r) => ({ id: Number(r.id), openedAt: date(r.openedAt)!, escalationsSent: Number(r.escalationsSent) }));
    },

    async rules(userId: number): Promise<NotificationRule[] | null> {
      const [row] = rowsOf<{ rules: unknown }>(
        await db.execute(sql`select rules from notification_rules where user_id = ${userId}`),
      );
      if (!row) return null;
      return (typeof row.rules === 'string' ? JSON.parse(row.rules) : row.rules) as NotificationRule[];
    },

    async saveRules(userId: number, rules: NotificationRule[], at: Date) {
      // jsonb from a bound text parameter: the JSON is never spliced into the statement.
      await db.execute(sql`
        insert into notification_rules (user_id, rules, updated_at) values (${userId}, ${JSON.stringify(rules)}::jsonb, ${iso(at)}::timestamptz)
        on conflict (user_id) do update set rules = excluded.rules, updated_at = excluded.updated_at`);
    },

    /** Every distributor organisation's policy (an incident escalates under each). */
    async policies(): Promise<{ organisation: string; policy: EscalationPolicy }[]> {
      return rowsOf<{ organisation: string; policy: unknown }>(
        await db.execute(sql`select organisation, policy from escalation_policies order by organisation`),
      ).map((r) => ({
        organisation: r.organisation,
        policy: (typeof r.policy === 'string' ? JSON.parse(r.policy) : r.policy) as EscalationPolicy,
      }));
    },

    async policy(organisation: string): Promise<EscalationPolicy | null> {
      const [row] = rowsOf<{ policy: unknown }>(
        await db.execute(sql`select policy from escalation_policies where organisation = ${organisation}`),
      );
      return row ? ((typeof row.policy === 'string' ? JSON.parse(row.policy) : row.policy) as EscalationPolicy) : null;
    },

    async savePolicy(organisation: string, policy: EscalationPolicy, by: number, at: Date) {
      await db.execute(sql`
        insert into escalation_policies (organisation, policy, updated_by, updated_at) values (${organisation}, ${JSON.stringify(policy)}::jsonb, ${by}, ${iso(at)}::timestamptz)
        on conflict (organisation) do update set policy = excluded.policy, updated_by = excluded.updated_by, updated_at = excluded.updated_at`);
    },

    /** Distributor users of an organisation (the escalation chain may name only them). */
    async organisationMembers(organisation: string): Promise<number[]> {
      return rowsOf<{ id: number }>(
        await db.execute(
          sql`select id from users where role = 'distributor' and user_type <> 'market-partner' and lower(trim(company)) = ${organisation}`,
        ),
      ).map((r) => Number(r.id));
    },

    /** The distributors of an organisation with their names: the escalation policy's choices in Account Settings. */
    async organisationPeople(organisation: string): Promise<{ id: number; name: string }[]> {
      return rowsOf<{ id: number; name: string }>(
        await db.execute(
          sql`select id, coalesce(nullif(trim(username), ''), email) as name from users where role = 'distributor' and user_type <> 'market-partner' and lower(trim(company)) = ${organisation} and activated order by 2, 1`,
        ),
      ).map((r) => ({ id: Number(r.id), name: String(r.name) }));
    },

    /** Which of these scope ids exist within the caller's device scope (a rule's scope must be inside the caller's). */
    async scopeExists(kind: 'brand' | 'county' | 'site', id: number, scope: SQL | undefined): Promise<boolean> {
      const col =
        kind === 'brand'
          ? sql`devices.brand_id`
          : kind === 'site'
            ? sql`devices.group_id`
            : sql`(select g.location_id from device_groups g where g.id = devices.group_id)`;
      if (!scope) {
        const table = kind === 'brand' ? sql.raw('brands') : kind === 'site' ? sql.raw('device_groups') : sql.raw('locations');
        const [row] = rowsOf<{ ok: boolean }>(
          await db.execute(sql`select exists (select 1 from ${table} where id = ${id}) as ok`),
        );
        return Boolean(row?.ok);
      }
      const [row] = rowsOf<{ ok: boolean }>(
        await db.execute(sql`select exists (select 1 from devices where ${col} = ${id} and ${scope}) as ok`),
      );
      return Boolean(row?.ok);
    },

    /** In-app notices of a user, newest first, and how many are unread. */
    async inbox(
      userId: number,
      limit: number,
    ): Promise<{ unread: number; items: { id: number; incidentId: number; kind: string; at: Date; read: boolean }[] }> {
      const items = rowsOf<Record<string, unknown>>(
        await db.execute(
          sql`select id, incident_id as "incidentId", kind, sent_at as at, read_at is not null as read from notifications where user_id = ${userId} and channel = 'inApp' and status = 'sent' order by id desc limit ${limit}`,
        ),
      ).map((r) => ({
        id: Number(r.id),
        incidentId: Number(r.incidentId),
        kind: String(r.kind),
        at: date(r.at)!,
        read: Boolean(r.read),
      }));
      const [row] = rowsOf<{ n: number }>(
        await db.execute(
          sql`select count(*)::int as n from notifications where user_id = ${userId} and channel = 'inApp' and status = 'sent' and read_at is null`,
        ),
      );
      return { unread: Number(row?.n ?? 0), items };
    },

    async markRead(userId: number, at: Date, incidentId?: number) {
      await db.execute(
        sql`update notifications set read_at = ${iso(at)}::timestamptz where user_id = ${userId} and channel = 'inApp' and read_at is null ${incidentId ? sql`and incident_id = ${incidentId}` : sql``}`,
      );
    },
  };
}
