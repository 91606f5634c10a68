import {
  TELEMETRY_LIMITS,
  addDays,
  batteryLogRange,
  bucketThresholds,
  dayBuckets,
  hourBuckets,
  kbToMb,
  localDateOf,
  localDateOfInput,
  median,
  monthEndOf,
  monthStartOf,
  pumpLogPlan,
  signalBand,
  siteTimeZone,
  toZonedIso,
  usageStatus,
  zonedTimeToInstant,
  type BatteryLogPoint,
  type BatteryLogRequest,
  type HourUsage,
  type MonthDataUsageAnswer,
  type PumpLogAnswer,
  type PumpLogRequest,
  type RangeProblem,
  type SimLogRow,
  type SmsStatusAnswer,
  type TimeBucket,
} from '@fleet/shared';
import { deviceScope, type ScopeViewer } from '../access/scope.ts';
import { ApiError } from '../lib/errors.ts';
import type { TelemetryDevice, TelemetryRepository } from './telemetry.repository.ts';

export type TelemetryServiceDeps = {
  /** The reads this service makes (telemetryRepository; a fake in the unit tests). */
  repo: Pick<
    TelemetryRepository,
    | 'device'
    | 'deviceSet'
    | 'pumpCounts'
    | 'remainAt'
    | 'batteryCount'
    | 'batteryReadings'
    | 'batteryAverages'
    | 'usage'
    | 'smsLog'
    | 'smsSummary'
  >;
  now?: () => Date;
};

const round = (v: number, decimals: number) => Math.round(v * 10 ** decimals) / 10 ** decimals;
const fail = (p: RangeProblem): never => {
  throw ApiError.field(p.field, p.message);
};

/**
 * The telemetry reads of spec section 7, every one scoped (a device outside the caller's scope, or not
 * placed on a site, answers 404; every role may read within its scope) and cut in the site's time zone
 * (device_groups.timezone_id, UTC when null). Bucket boundaries come from the shared pure helpers; the
 * database counts rows between them with width_bucket, so labels and counts cannot disagree and the
 * answer does not depend on the database's own time zone data.
 */
export function telemetryService({ repo, now = () => new Date() }: TelemetryServiceDeps) {
  async function deviceOf(viewer: ScopeViewer, serial: string): Promise<TelemetryDevice & { tz: string; today: string }> {
    const device = await repo.device(serial, deviceScope(viewer));
    if (!device) throw ApiError.notFound('No device with this serial.');
    const tz = siteTimeZone(device.timezoneId);
    return { ...device, tz, today: localDateOf(now(), tz) };
  }

  const localDate = (value: string | undefined, tz: string) => (value === undefined ? undefined : localDateOfInput(value, tz));

  /**
   * Usage per bucket against the device's baseline: its median day over the 30 site-local days up to the
   * last day shown (or up to yesterday when that is today or later, so a partial day never sets the norm),
   * counting only days that have readings. `scale` turns the day baseline into the bucket's (1/24 per hour).
   */
  async function usageSeries(
    device: TelemetryDevice & { tz: string; today: string },
    buckets: TimeBucket[],
    lastDay: string,
    scale: number,
  ) {
    const baselineEnd = lastDay < device.today ? addDays(lastDay, 1) : device.today;
    const window = dayBuckets(addDays(baselineEnd, -TELEMETRY_LIMITS.usageBaselineDays), addDays(baselineEnd, -1), device.tz);
    const [shown, past] = await Promise.all([
      repo.usage(device.id, bucketThresholds(buckets)),
      repo.usage(device.id, bucketThresholds(window)),
    ]);
    const dayBaseline = median(past.map((r) => Number(r.kb) / 1024));
    const byBucket = new Map(shown.map((r) => [r.b, Number(r.kb)]));
    return buckets.map((b, i) => {
      const kb = byBucket.get(i + 1);
      const mb = kb === undefined ? null : kb / 1024;
      return {
        bucket: b,
        usage: kb === undefined ? 0 : kbToMb(kb),
        status: usageStatus(mb, dayBaseline == null ? null : dayBaseline * scale),
      };
    });
  }

  return {
    /**
     * POST /getPumpLog. Totals count both pumps over the whole range (whatever pumpNumber is) and always
     * equal the sum of the buckets of their pump. remainDatas:
     * - SINGLE: the pump's remaining volume at the end of each bucket (last level reading at or before it),
     *   null when there is none yet, and null for buckets that have not started;
     * - ADDRESS / DISTRICT / ALL: one point per bucket with value null. A sum of reservoirs over devices is
     *   not a fluid level (pump 1 holds sunscreen on one device and sanitizer on another), and the chart's
     *   level line is a single device's; the nulls keep the series aligned with dispensingDatas.
     * pumpNumber 2 on a SINGLE device whose right pump is Unspecified answers empty series (not an error).
     */
    async pumpLog(viewer: ScopeViewer, input: PumpLogRequest): Promise<PumpLogAnswer> {
      const device = await deviceOf(viewer, input.serial);
      const dates = {
        todayDate: localDate(input.todayDate, device.tz),
        startDate: localDate(input.startDate, device.tz),
        endDate: localDate(input.endDate, device.tz),
      };
      const plan = pumpLogPlan(input.filterDateType, dates, device.today, device.tz);
      if ('problem' in plan) return fail(plan.problem);
      const { buckets } = plan;
      const counts = await repo.pumpCounts(
        repo.deviceSet(input.filterDeviceType, device, deviceScope(viewer)),
        bucketThresholds(buckets),
      );
      const perBucket = buckets.map(() => 0);
      const totals = { 1: 0, 2: 0 } as Record<number, number>;
      for (const c of counts) {
        if (c.b < 1 || c.b > buckets.length) continue;
        totals[c.pump] = (totals[c.pump] ?? 0) + Number(c.n);
        if (c.pump === input.pumpNumber) perBucket[c.b - 1] = (perBucket[c.b - 1] ?? 0) + Number(c.n);
      }
      const answer: PumpLogAnswer = {
        total_left_pump_dispensation: totals[1] ?? 0,
        total_right_pump_dispensation: totals[2] ?? 0,
        dispensingDatas: [],
        remainDatas: [],
      };
      if (input.filterDeviceType === 'SINGLE' && input.pumpNumber === 2 && device.rightPumpType === 'Unspecified') return answer;
      answer.dispensingDatas = buckets.map((b, i) => ({ date: b.label, value: perBucket[i] ?? 0 }));
      if (input.filterDeviceType === 'SINGLE') {
        const at = now().getTime();
        const remain = await repo.remainAt(
          device.id,
          input.pumpNumber,
          buckets.map((b) => b.end),
        );
        answer.remainDatas = buckets.map((b, i) => ({
          date: b.label,
          value: b.start.getTime() > at || remain[i] == null ? null : round(remain[i]!, 1),
        }));
      } else {
        answer.remainDatas = buckets.map((b) => ({ date: b.label, value: null }));
      }
      return answer;
    },

    /**
     * POST /batteryLog: readings of startDate..endDate (site-local days; by default the year ending today),
     * oldest first. Up to 2,000 readings every reading is answered; beyond that, one point per site-local
     * day with readings: the day's average (percent to 0.1, volts to 0.01), update_on the day's local midnight.
     */
    async batteryLog(viewer: ScopeViewer, input: BatteryLogRequest): Promise<BatteryLogPoint[]> {
      const device = await deviceOf(viewer, input.serial);
      const range = batteryLogRange(
        { startDate: localDate(input.startDate, device.tz), endDate: localDate(input.endDate, device.tz) },
        device.today,
      );
      if ('problem' in range) return fail(range.problem);
      const from = zonedTimeToInstant(range.firstDate, device.tz);
      const to = zonedTimeToInstant(addDays(range.lastDate, 1), device.tz);
      if ((await repo.batteryCount(device.id, from, to)) <= TELEMETRY_LIMITS.batteryMaxPoints) {
        return (await repo.batteryReadings(device.id, from, to)).map((r) => ({
          battery_percent: round(Number(r.percent), 1),
          battery_volt: round(Number(r.volt), 2),
          update_on: toZonedIso(Number(r.at), device.tz),
        }));
      }
      const days = dayBuckets(range.firstDate, range.lastDate, device.tz);
      return (await repo.batteryAverages(device.id, bucketThresholds(days)))
        .filter((r) => r.b >= 1 && r.b <= days.length)
        .map((r) => ({
          battery_percent: round(Number(r.percent), 1),
          battery_volt: round(Number(r.volt), 2),
          update_on: days[r.b - 1]!.label,
        }));
    },

    /** GET /monthDataUsage: every site-local day of the month, keyed 'YYYY-MM-DD', MB used and its status. */
    async monthDataUsage(viewer: ScopeViewer, serial: string, date: string): Promise<MonthDataUsageAnswer> {
      const device = await deviceOf(viewer, serial);
      const day = /^\d{4}-\d{2}$/.test(date) ? `${date}-01` : localDateOfInput(date, device.tz);
      const first = monthStartOf(day);
      const last = monthEndOf(day);
      const series = await usageSeries(device, dayBuckets(first, last, device.tz), last, 1);
      const out: MonthDataUsageAnswer = {};
      series.forEach((s, i) => {
        out[addDays(first, i)] = { status: s.status, usage: s.usage };
      });
      return out;
    },

    /** GET /dataUsage: each hour of a site-local day (23/24/25), 'HH:00', MB used and its status (baseline / 24). */
    async dataUsage(viewer: ScopeViewer, serial: string, date: string): Promise<HourUsage[]> {
      const device = await deviceOf(viewer, serial);
      const day = localDateOfInput(date, device.tz);
      const series = await usageSeries(device, hourBuckets(day, device.tz), day, 1 / 24);
      return series.map((s) => ({
        name: `${s.bucket.label.slice(11, 13)}:00`,
        value: s.usage,
        status: s.status,
        start: s.bucket.label,
      }));
    },

    /** GET /simLog: the SMS log, newest first, created_when in site time. */
    async simLog(viewer: ScopeViewer, serial: string, limit: number): Promise<SimLogRow[]> {
      const device = await deviceOf(viewer, serial);
      return (await repo.smsLog(device.id, limit)).map((r) => ({
        direction: r.direction,
        message: r.message,
        created_when: toZonedIso(Number(r.at), device.tz),
      }));
    },

    /**
     * POST /sms_status: the spec shows neither body nor answer. Implemented as the SIM panel's summary: SIM
     * identity, the current signal quality and its band, when the last SMS went either way, and SMS counts
     * and MB used over the last 30 days (a rolling 30 x 24 h before now). No body is needed; any is ignored.
     */
    async smsStatus(viewer: ScopeViewer, serial: string): Promise<SmsStatusAnswer> {
      const device = await deviceOf(viewer, serial);
      const since = new Date(now().getTime() - TELEMETRY_LIMITS.usageBaselineDays * 86_400_000);
      const s = await repo.smsSummary(device.id, since);
      return {
        simcardPhoneNumber: device.simcardPhoneNumber,
        imei: device.imei,
        simSerialNumber: device.simSerialNumber,
        signal_quality: device.signalQuality,
        signal_band: signalBand(device.signalQuality, device.warningLists),
        last_sms_at: s.lastAt == null ? null : toZonedIso(s.lastAt, device.tz),
        sms_in_30d: s.smsIn,
        sms_out_30d: s.smsOut,
        data_used_30d_mb: kbToMb(s.kb),
      };
    },
  };
}
