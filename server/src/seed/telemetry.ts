import type { Database } from '../db/client.ts';
import { count } from '../db/client.ts';
import type { Progress, ProgressStage } from '../ops/progress.ts';

/**
 * Telemetry history for every placed device that has reported, generated inside the database with
 * generate_series (fast on PGlite and PostgreSQL alike), deterministic through setseed:
 * - pump_events: one row per dispense, by the site's local hour (8:00-19:00), busier at midday, at
 *   weekends and in summer, with the shot volume of the device's pump setting;
 * - battery_readings every 3 h: a slow wave around the current charge, ending at the current value;
 * - data_usage every 3 h, level_readings daily per pump, sms_log every few days.
 * Devices stop reporting at their last_seen_at.
 * One statement per table, each a progress stage (ops/progress.ts), each with its own setseed: the pooled
 * PostgreSQL connection of one statement need not be the next one's, and the data stays the same per run.
 */
export type TelemetryDensity = {
  /** Mean dispenses per busy hour per pump (about 2.5 gives ~10 a day). */
  pumpRate: number;
  /** Hours between battery and data-usage readings. */
  readingEveryHours: number;
  /** Days between SMS exchanges. */
  smsEveryDays: number;
};
export const DEMO_DENSITY: TelemetryDensity = { pumpRate: 5, readingEveryHours: 3, smsEveryDays: 3 };

/** The stages and their weights: their shares of the demo seed's time on PGlite (30 s for a year, 2 cores). */
export const TELEMETRY_STAGES = [
  { name: 'telemetry: pump events', weight: 46 },
  { name: 'telemetry: battery readings', weight: 23 },
  { name: 'telemetry: data usage', weight: 20 },
  { name: 'telemetry: level readings', weight: 3 },
  { name: 'telemetry: SMS log', weight: 3 },
  { name: 'telemetry: dispense counters', weight: 1 },
] as const satisfies readonly ProgressStage[];

const noProgress: Pick<Progress, 'stage'> = { stage: (_name, fn) => fn() };

export async function seedTelemetry(
  database: Database,
  opts: { historyDays: number; now: Date; density?: TelemetryDensity; progress?: Pick<Progress, 'stage'> | undefined },
): Promise<number> {
  const progress = opts.progress ?? noProgress;
  const density = opts.density ?? DEMO_DENSITY;
  const every = `interval '-${density.readingEveryHours} hours'`;
  const now = `'${opts.now.toISOString()}'::timestamptz`;
  const from = `(${now} - interval '${Math.max(1, Math.floor(opts.historyDays))} days')`;
  await progress.stage('telemetry: pump events', () =>
    database.exec(`
    SELECT setseed(0.4242);
    INSERT INTO pump_events (device_id, pump_number, occurred_at, volume_ml, batch_id)
    SELECT d.id, p.pump, h.ts + (random() * interval '59 minutes'),
           CASE WHEN p.pump = 1 THEN s.ml_per_shot ELSE s.ml_per_shot2 END,
           CASE WHEN p.pump = 1 THEN d.batch_id ELSE d.batch2_id END
    FROM devices d
    JOIN device_groups g ON g.id = d.group_id
    JOIN pump_settings s ON s.device_id = d.id
    CROSS JOIN (VALUES (1), (2)) AS p(pump)
    CROSS JOIN LATERAL generate_series(date_trunc('hour', ${from}), least(d.last_seen_at, ${now}) - interval '1 hour', interval '1 hour') AS h(ts)
    CROSS JOIN LATERAL (SELECT extract(hour FROM h.ts AT TIME ZONE coalesce(g.timezone_id, 'UTC')) AS hr,
                               extract(isodow FROM h.ts AT TIME ZONE coalesce(g.timezone_id, 'UTC')) AS dow,
                               extract(month FROM h.ts AT TIME ZONE coalesce(g.timezone_id, 'UTC')) AS mon) AS l
    CROSS JOIN LATERAL generate_series(1, floor(random() * ${density.pumpRate}
        * (1 - abs(l.hr - 13) / 7.0)
        * (CASE WHEN l.dow >= 6 THEN 1.6 ELSE 1 END)
        * (CASE WHEN p.pump = 1 THEN 0.55 + 0.45 * cos((l.mon - 7) * pi() / 6) ELSE 0.8 END))::int) AS k(n)
    WHERE d.last_seen_at IS NOT NULL
      AND (p.pump = 1 OR d.right_pump_type <> 'Unspecified')
      AND l.hr BETWEEN 8 AND 19;
  `),
  );

  await progress.stage('telemetry: battery readings', () =>
    database.exec(`
    SELECT setseed(0.4243);
    INSERT INTO battery_readings (device_id, recorded_at, battery_volt, battery_percent)
    SELECT d.id, r.ts, round((3.3 + r.pct / 100 * 0.9)::numeric, 2), round(r.pct::numeric, 1)
    FROM devices d
    CROSS JOIN LATERAL (
      SELECT ts, least(100, greatest(3,
               d.battery_percent
               + 18 * sin(extract(epoch FROM least(d.last_seen_at, ${now}) - ts) / 86400 / 9)
               + CASE WHEN ts < least(d.last_seen_at, ${now}) THEN random() * 4 - 2 ELSE 0 END)) AS pct
      FROM generate_series(least(d.last_seen_at, ${now}), ${from}, ${every}) AS ts
    ) AS r
    WHERE d.last_seen_at IS NOT NULL AND d.group_id IS NOT NULL;
  `),
  );

  await progress.stage('telemetry: data usage', () =>
    database.exec(`
    SELECT setseed(0.4244);
    INSERT INTO data_usage (device_id, recorded_at, kb, signal_quality)
    SELECT d.id, ts,
           round((CASE WHEN extract(hour FROM ts AT TIME ZONE 'America/Chicago') BETWEEN 8 AND 19 THEN 60 + random() * 240 ELSE 8 + random() * 30 END)::numeric, 1),
           greatest(0, least(100, coalesce(d.signal_quality, 50) + (random() * 16 - 8)::int))
    FROM devices d
    CROSS JOIN LATERAL generate_series(least(d.last_seen_at, ${now}), ${from}, ${every}) AS ts
    WHERE d.last_seen_at IS NOT NULL AND d.group_id IS NOT NULL;
  `),
  );

  await progress.stage('telemetry: level readings', () =>
    database.exec(`
    INSERT INTO level_readings (device_id, pump_number, recorded_at, level_sensor, volume_remain)
    SELECT d.id, p.pump, ts,
           CASE WHEN ts >= least(d.last_seen_at, ${now}) THEN (CASE WHEN p.pump = 1 THEN d.level_sensor1 ELSE d.level_sensor2 END) ELSE true END,
           round(((CASE WHEN p.pump = 1 THEN d.volume_remain ELSE d.volume_remain2 END
                  + extract(epoch FROM least(d.last_seen_at, ${now}) - ts) / 86400 * 55)::numeric % 1800), 1)
    FROM devices d
    CROSS JOIN (VALUES (1), (2)) AS p(pump)
    CROSS JOIN LATERAL generate_series(least(d.last_seen_at, ${now}), ${from}, interval '-1 day') AS ts
    WHERE d.last_seen_at IS NOT NULL AND d.group_id IS NOT NULL AND (p.pump = 1 OR d.right_pump_type <> 'Unspecified');
  `),
  );

  await progress.stage('telemetry: SMS log', () =>
    database.exec(`
    SELECT setseed(0.4245);
    INSERT INTO sms_log (device_id, direction, message, created_when)
    SELECT d.id, m.direction, m.message, ts + (m.n * interval '2 minutes')
    FROM devices d
    CROSS JOIN LATERAL generate_series(least(d.last_seen_at, ${now}) - interval '1 hour', ${from}, interval '-${density.smsEveryDays} days 7 hours') AS ts
    CROSS JOIN LATERAL (VALUES
        (0, 'OUT', 'STATUS ' || d.serial || ' BAT=' || round(d.battery_percent::numeric) || '% SQ=' || coalesce(d.signal_quality, 0)),
        (1, 'IN', CASE WHEN random() < 0.5 THEN 'CONFIG OK' ELSE 'ACK WAKEUP 06:00' END)) AS m(n, direction, message)
    WHERE d.last_seen_at IS NOT NULL AND d.group_id IS NOT NULL;
  `),
  );

  await progress.stage('telemetry: dispense counters', () =>
    database.exec(`
    UPDATE devices d
    SET dispense_count1 = a.c1, dispense_count2 = a.c2, dispensed_ml1 = a.m1, dispensed_ml2 = a.m2
    FROM (SELECT device_id,
                 count(*) FILTER (WHERE pump_number = 1) AS c1, count(*) FILTER (WHERE pump_number = 2) AS c2,
                 coalesce(sum(volume_ml) FILTER (WHERE pump_number = 1), 0) AS m1,
                 coalesce(sum(volume_ml) FILTER (WHERE pump_number = 2), 0) AS m2
          FROM pump_events GROUP BY device_id) a
    WHERE a.device_id = d.id;
  `),
  );
  let rows = 0;
  for (const table of ['pump_events', 'battery_readings', 'data_usage', 'level_readings', 'sms_log'])
    rows += await count(database.db, table);
  return rows;
}
