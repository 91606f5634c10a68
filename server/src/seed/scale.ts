import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { count } from '../db/client.ts';
import { createProgress, type ProgressTty } from '../ops/progress.ts';
import { demoSeedStages, seedDemo } from './demo.ts';
import { seedTelemetry, TELEMETRY_STAGES } from './telemetry.ts';

const BENCH_FLEET_STAGE = { name: 'scale fleet: bench sites and devices', weight: 5 };
const ANALYZE_STAGE = { name: 'scale fleet: ANALYZE', weight: 4 };

/**
 * A fleet for benchmarks: the demo fleet plus generated sites and devices up to the asked numbers
 * (10,000 devices on 1,000 sites by default) and a year of telemetry at a lighter density
 * (about 3 dispenses a day per pump, daily battery and data readings, weekly SMS).
 */
export async function seedScale(
  database: Database,
  opts: {
    devices: number;
    sites: number;
    historyDays: number;
    uploadsDir: string;
    log?: (m: string) => void;
    tty?: ProgressTty | undefined;
  },
) {
  const log = opts.log ?? (() => undefined);
  const t0 = Date.now();
  const now = new Date();
  // One progress over the demo fleet, the bench fleet, its telemetry (the bulk) and ANALYZE.
  const progress = createProgress({
    title: 'scale seed',
    stages: [...demoSeedStages(false), BENCH_FLEET_STAGE, ...TELEMETRY_STAGES, ANALYZE_STAGE],
    log,
    tty: opts.tty,
  });
  await seedDemo(database, { uploadsDir: opts.uploadsDir, now, telemetry: false, log, progress });
  const existingSites = await count(database.db, 'device_groups');
  const existingDevices = (await database.db.execute(
    sql`select count(*)::int as n from devices where group_id is not null`,
  )) as unknown as { rows: { n: number }[] };
  const newSites = Math.max(0, opts.sites - existingSites);
  const newDevices = Math.max(0, opts.devices - existingDevices.rows[0]!.n);
  await progress.stage(BENCH_FLEET_STAGE.name, () => addBenchFleet(database, newSites, newDevices));
  log(
    `scale fleet: ${opts.devices} devices on ${opts.sites} sites placed in ${((Date.now() - t0) / 1000).toFixed(1)} s; generating ${opts.historyDays} days of telemetry...`,
  );
  const rows = await seedTelemetry(database, {
    historyDays: opts.historyDays,
    now,
    density: { pumpRate: 1.2, readingEveryHours: 24, smsEveryDays: 7 },
    progress,
  });
  await progress.stage(ANALYZE_STAGE.name, () => database.exec('ANALYZE'));
  progress.done();
  log(`scale fleet ready in ${((Date.now() - t0) / 1000).toFixed(1)} s with ${rows} telemetry rows`);
  return { telemetryRows: rows };
}

/**
 * Generated sites ('Bench Site n') and devices ('BN000001'...) added to a seeded demo fleet, set-based inside
 * the database: seedScale's fleet, and the alerts bench's load (enough devices that 200 check-ins/s are a
 * fleet's, not each device several times a second).
 */
export async function addBenchFleet(database: Database, newSites: number, newDevices: number) {
  await database.exec(`
    SELECT setseed(0.17);
    INSERT INTO device_groups (name, address, lat, lng, location_id, timezone_id)
    SELECT 'Bench Site ' || n, n || ' Bench Rd, New Orleans, LA 70112',
           round((30.0 + (random() - 0.5) * 0.8)::numeric, 6), round((-90.26 + (random() - 0.5) * 1.2)::numeric, 6),
           (SELECT array_agg(id ORDER BY id) FROM locations)[1 + n % (SELECT count(*) FROM locations)::int],
           'America/Chicago'
    FROM generate_series(1, ${newSites}) AS n;

    WITH g AS (SELECT array_agg(id ORDER BY id) AS ids, count(*)::int AS cnt FROM device_groups WHERE name LIKE 'Bench Site %'),
         b AS (SELECT array_agg(id ORDER BY id) AS ids, count(*)::int AS cnt FROM brands),
         s AS (SELECT array_agg(id ORDER BY id) AS ids FROM batches WHERE batch_no IN ('SPF-2601', 'SPF-2602', 'SPF-2510')),
         z AS (SELECT id FROM batches WHERE batch_no = 'SAN-2601')
    INSERT INTO devices (serial, label, number, address, lat, lng, group_id, brand_id, location_event_type,
                         left_pump_type, right_pump_type, batch_id, batch2_id, volume_remain, volume_remain2,
                         is_online, is_pause, battery_percent, battery_volt, signal_quality, core_ver,
                         poweroff_time, wakeup1_time, last_seen_at, next_wakeup_time,
                         warning_lists, is_warning, battery_warning)
    SELECT 'BN' || lpad(n::text, 6, '0'), 'Bench device ' || n, 1 + (n / g.cnt), grp.address,
           round((grp.lat + (random() - 0.5) * 0.001)::numeric, 6), round((grp.lng + (random() - 0.5) * 0.001)::numeric, 6), grp.id,
           b.ids[1 + n % b.cnt], 'SITE', 'Sunscreen', CASE WHEN n % 3 = 0 THEN 'Sanitizer' ELSE 'Unspecified' END,
           s.ids[1 + n % 3], CASE WHEN n % 3 = 0 THEN z.id END, 300 + (n * 37) % 1200, CASE WHEN n % 3 = 0 THEN 400 + (n * 53) % 1000 ELSE 0 END,
           n % 13 <> 0, n % 29 = 0, CASE WHEN n % 10 = 0 THEN 30 ELSE 60 + n % 40 END, 3.9, 20 + n % 76, '1.1.2',
           '30', '5', now() - ((n % 20) * interval '1 minute') - CASE WHEN n % 13 = 0 THEN interval '2 days' ELSE interval '0' END,
           now() + interval '20 minutes',
           CASE WHEN n % 10 = 0 THEN '["BATTERY"]'::jsonb ELSE '[]'::jsonb END, n % 10 = 0, n % 10 = 0
    FROM generate_series(1, ${newDevices}) AS n, g, b, s, z,
         LATERAL (SELECT id, address, lat, lng FROM device_groups WHERE id = g.ids[1 + n % g.cnt]) AS grp;

    INSERT INTO pump_settings (device_id, ml_per_shot, ml_per_shot2)
    SELECT id, 2.464, 2.464 FROM devices WHERE NOT EXISTS (SELECT 1 FROM pump_settings p WHERE p.device_id = devices.id);

    INSERT INTO user_exclusive_devices (user_id, device_id)
    SELECT (SELECT id FROM users WHERE email = 'partner@demo.test'), id FROM devices WHERE serial LIKE 'BN%' AND substr(serial, 3)::int % 20 = 0;
  `);
}
