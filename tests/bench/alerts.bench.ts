/**
 * Alerts (issue 43), measured, not tested:
 *
 * 1. latency: the portal (createApp with the real engine and dispatcher) in a process of its own on
 *    PostgreSQL (`--portal`, forked by this file) takes device check-ins at 200/s over HTTP, open loop, from
 *    a third process, from a fleet of 2,000 placed devices (`--fleet`); one device per site starts reporting
 *    a low battery at a random moment. From that check-in's send to the in-app notice (the in-app channel handing it to the user's sockets) and to the
 *    mail outbox row (the email channel's enqueue resolved), in wall-clock ms across the processes: p50/p99
 *    over the incidents raised. Target: p99 under 5 s in-app. The host's load average is printed with it.
 * 2. notifications per real incident: a simulated day on the injected clock (one step a minute, the
 *    minute job every step), the fleet checking in every 35 minutes, with the simulator's scenarios
 *    (workers/src/simulator/scenarios.ts: carrier outages at two sites, units whose network flaps).
 *    A real incident is a site's offline spell by the schedule-aware rule (devices of one site offline
 *    within the 60-minute grouping window of each other are one), or each outage and each flapping unit one
 *    (per_flapping_unit: the flapping units alone). Counted: first notices and reopens per recipient and
 *    channel (not escalations). Target at most 1.2 with each flapping unit one real incident.
 *
 *   npx tsx tests/bench/alerts.bench.ts [--pglite] [--rate 200] [--seconds 20] [--fleet 2000] [--hours 24]
 *
 * Prints RESULT lines for tests/bench/run-all.ts.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { ALERT_DEFAULTS, checkinCycleMinutes, offlineSince } from '@fleet/shared';
import { createApp } from '../../server/src/app.ts';
import { addBenchFleet } from '../../server/src/seed/scale.ts';
import { alertsFeature, type ChannelSet } from '../../server/src/alerts/index.ts';
import { emailChannel } from '../../server/src/alerts/channels.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import { networkDown, type Scenario } from '../../workers/src/simulator/scenarios.ts';
import { postgresAvailable } from '../helpers/backends.ts';
import { harnessConfig, startHarness, type Harness } from '../helpers/harness.ts';
import { checkinLoad } from './checkin-load.ts';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : dflt;
};
const rate = opt('rate', 200);
const seconds = opt('seconds', 20);
/** Placed devices of the latency part: the demo's plus generated ones (20 a site), so 200 check-ins/s come from a fleet. */
const fleetSize = opt('fleet', 2000);
const hours = opt('hours', 24);
const portalMode = argv[0] === '--portal';
const backend = portalMode || argv.includes('--pglite') || !(await postgresAvailable()) ? 'pglite' : 'postgres';
const MINUTE = 60_000;
const DIST = 'distributor@demo.test';
/** The host's load averages (1, 5, 15 min), as `uptime` prints them: the host is shared. */
const hostLoad = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(', ');

if (!portalMode)
  console.log(
    `alerts bench: ${os.cpus().length} cores, node ${process.version}, ${backend}, load average ${hostLoad()}, ${new Date().toISOString()}`,
  );

type Row = Record<string, unknown>;
const rowsOf = async <T = Row>(h: Harness, q: ReturnType<typeof sql>) =>
  ((await h.database.db.execute(q)) as unknown as { rows: T[] }).rows;
const pct = (list: number[], p: number) => {
  const s = [...list].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : NaN;
};

/** Every device online, no warnings, no batches, no overdue bill: only what the bench does raises. */
async function quietFleet(h: Harness, at: Date) {
  await h.database.db.execute(
    sql`update devices set warning_lists = '[]'::jsonb, is_warning = false, is_batch_warning = false, battery_warning = false, is_online = true, last_seen_at = ${at.toISOString()}::timestamptz, batch_id = null, batch2_id = null, poweroff_time = '30', wakeup1_time = '5'`,
  );
  await h.database.db.execute(sql`update bills set status = 'ACTIVE' where status = 'OVERDUE'`);
}

// ---------------------------------------------------------------- the portal in its own process
/**
 * `--portal <schema> <dataDir> <smtpUrl>`: this file as the portal's process (forked by latency()): the app on
 * the bench's PostgreSQL schema with the real engine, dispatcher and email channel, its own event loop, as
 * `npm start` runs it. The in-app channel reports each incident's first notice to the parent ({ inApp: [id,
 * wall-clock ms] }), and the email channel when the mail outbox took it ({ outbox: [id, ms] }).
 */
async function portalProcess(schema: string, dataDir: string, smtpText: string) {
  const smtpUrl = smtpText || undefined;
  const { openDatabase } = await import('../../server/src/db/client.ts');
  const { TEST_DATABASE_URL } = await import('../helpers/backends.ts');
  const database = await openDatabase({ url: TEST_DATABASE_URL, schema });
  const config = harnessConfig(dataDir, smtpUrl ? { smtpUrl } : {});
  const told = { inApp: new Set<number>(), outbox: new Set<number>() };
  const tell = (kind: 'inApp' | 'outbox', id: number) => {
    if (told[kind].has(id)) return;
    told[kind].add(id);
    process.send!({ [kind]: [id, Date.now()] });
  };
  const real: { email?: ChannelSet['email'] } = {};
  const app = createApp({
    config,
    database,
    mailer: createMailer({ smtpUrl, from: config.mailFrom, outboxDir: path.join(dataDir, 'outbox') }),
    log: () => undefined,
    alerts: {
      channels: {
        inApp: {
          async send(n) {
            tell('inApp', n.incident.id);
            return 'sent';
          },
        },
        email: {
          async send(n) {
            const answer = await real.email!.send(n);
            tell('outbox', n.incident.id);
            return answer;
          },
        },
      },
    },
  });
  // The real email channel on the app's own mail outbox queue.
  real.email = emailChannel(app.queue as Parameters<typeof emailChannel>[0]);
  const server = http.createServer({ keepAlive: true }, app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const stop = app.alerts.start({ dispatchEveryMs: 1_000 });
  const close = async () => {
    await stop().catch(() => undefined);
    server.closeAllConnections();
    server.close();
    await app.queue.close().catch(() => undefined);
    await database.close();
    process.exit(0);
  };
  process.on('message', (m) => m === 'stop' && void close());
  process.on('disconnect', () => void close());
  process.send!({ port: (server.address() as AddressInfo).port });
}

// ---------------------------------------------------------------- 1. latency at `rate` check-ins/s
async function latency() {
  // The portal runs in a process of its own (portalProcess) on PostgreSQL, which it shares with this one;
  // the check-in load comes from a third (checkin-load.ts), so neither the load nor this bench's
  // bookkeeping shares the portal's event loop.
  const h = await startHarness('postgres');
  // The demo's 68 devices at 200/s would each check in three times a second, queueing on their own rows;
  // a real fleet's 200/s is thousands of devices checking in every half hour (the ingest section's 2,000).
  const [placed] = await rowsOf<{ n: number }>(h, sql`select count(*)::int as n from devices where group_id is not null`);
  const extra = Math.max(0, fleetSize - placed!.n);
  if (extra) await addBenchFleet(h.database, Math.ceil(extra / 20), extra);
  const [current] = await rowsOf<{ schema: string }>(h, sql`select current_schema() as schema`);
  const schema = current!.schema;
  const inAppAt = new Map<number, number>();
  const outboxAt = new Map<number, number>();
  const child = fork(fileURLToPath(import.meta.url), ['--portal', schema, h.dataDir, h.config.smtpUrl ?? ''], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.on('message', (m: { port?: number; inApp?: [number, number]; outbox?: [number, number] }) => {
      if (m.port) resolve(m.port);
      if (m.inApp) inAppAt.set(m.inApp[0], m.inApp[1]);
      if (m.outbox) outboxAt.set(m.outbox[0], m.outbox[1]);
    });
    child.on('exit', (code) => reject(new Error(`the portal process exited with ${code}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.send('stop');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });

  await quietFleet(h, new Date());
  await h.database.db.execute(sql`update users set is_enable_notification_email = true where email = ${DIST}`);
  const login = await fetch(`${base}/auth/token/login/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: DIST, password: 'Demo1234' }),
  });
  const auth = { Authorization: `Token ${((await login.json()) as { auth_token: string }).auth_token}` };
  const put = await fetch(`${base}/api/v1/notificationRules`, {
    method: 'PUT',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      rules: [{ condition: 'ANY', scope: { type: 'all' }, channels: ['inApp', 'email'], quietHours: null, digest: false }],
    }),
  });
  if (!put.ok) throw new Error(`rules: ${put.status} ${await put.text()}`);

  const devices = await rowsOf<{ serial: string; group_id: number; left_pump_type: string; right_pump_type: string }>(
    h,
    sql`select serial, group_id, left_pump_type, right_pump_type from devices where group_id is not null order by id`,
  );
  // One device a site turns low at a random moment of the first 80 % of the run; the others are the load.
  const raisers: { serial: string; basic: string; at: number }[] = [];
  const seen = new Set<number>();
  let r = 7;
  const random = () => (r = (r * 48271) % 2147483647) / 2147483647;
  for (const d of devices) {
    if (seen.has(d.group_id)) continue;
    seen.add(d.group_id);
    const res = await fetch(`${base}/api/v1/deviceSecret/${encodeURIComponent(d.serial)}`, { method: 'POST', headers: auth });
    const { secret } = (await res.json()) as { secret: string };
    raisers.push({
      serial: d.serial,
      basic: `Basic ${Buffer.from(`${d.serial}:${secret}`).toString('base64')}`,
      at: random() * seconds * 800,
    });
  }
  const load = devices.filter((d) => !raisers.some((x) => x.serial === d.serial));
  const raisedAt = new Map<string, number>();
  const answeredAt = new Map<string, number>();
  const answers: number[] = [];
  let errors = 0;
  // The load: check-ins at `rate` from a child process, open loop (tests/bench/checkin-load.ts, as the rest and ingest sections).
  const { result } = await checkinLoad(base, auth, Buffer.from(JSON.stringify(load)), { rate, seconds, devices: load.length });
  const started = performance.now();
  const loadBefore = hostLoad();
  await Promise.all(
    raisers.map(async (x) => {
      await new Promise((resolve) => setTimeout(resolve, x.at));
      const t0 = Date.now();
      raisedAt.set(x.serial, t0);
      const at = new Date().toISOString();
      const res = await fetch(`${base}/device/v1/checkin`, {
        method: 'POST',
        headers: { Authorization: x.basic, 'Content-Type': 'application/json' },
        body: JSON.stringify({ sentAt: at, batteries: [{ at, volt: 3.4, percent: 20 }] }),
      }).catch(() => null);
      await res?.arrayBuffer();
      if (!res?.ok) errors++;
      answers.push(Date.now() - t0);
      answeredAt.set(x.serial, Date.now());
    }),
  );
  const loadResult = await result;
  const total = loadResult.sent;
  const elapsed = loadResult.seconds ?? (performance.now() - started) / 1000;
  // Stragglers: the last raises' notices.
  const deadline = performance.now() + 15_000;
  const incidentOf = async () =>
    new Map(
      (
        await rowsOf<{ serial: string; incident_id: number }>(
          h,
          sql`select d.serial, min(a.incident_id) as incident_id from alerts a join devices d on d.id = a.device_id where a.condition = 'BATTERY' group by d.serial`,
        )
      ).map((x) => [x.serial, Number(x.incident_id)]),
    );
  let incidents = await incidentOf();
  while (performance.now() < deadline) {
    incidents = await incidentOf();
    const pending = [...raisedAt.keys()].filter((s) => {
      const id = incidents.get(s);
      return id === undefined || !inAppAt.has(id) || !outboxAt.has(id);
    });
    if (!pending.length) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const inApp: number[] = [];
  const outbox: number[] = [];
  const afterAnswer: number[] = [];
  for (const [serial, t0] of raisedAt) {
    const id = incidents.get(serial);
    if (id === undefined) continue;
    if (inAppAt.has(id)) inApp.push(inAppAt.get(id)! - t0);
    if (inAppAt.has(id) && answeredAt.has(serial)) afterAnswer.push(inAppAt.get(id)! - answeredAt.get(serial)!);
    if (outboxAt.has(id)) outbox.push(outboxAt.get(id)! - t0);
  }
  const missing = raisedAt.size - inApp.length;
  console.log(`latency: host load average ${loadBefore} before the load, ${hostLoad()} after (the host is shared)`);
  console.log(
    `latency: load ${total} check-ins at ${loadResult.rate.toFixed(0)}/s (answer p50 ${loadResult.p50.toFixed(0)} ms, p99 ${loadResult.p99.toFixed(0)} ms, ${loadResult.errors} errors ${JSON.stringify(loadResult.errorStatuses)}); ${raisedAt.size} raising check-ins (answer p99 ${pct(answers, 99).toFixed(0)} ms, ${errors} errors), ${missing} without an in-app notice`,
  );
  console.log(
    `RESULT alerts_inapp_p50_ms=${pct(inApp, 50).toFixed(0)} p99_ms=${pct(inApp, 99).toFixed(0)} n=${inApp.length} missing=${missing}`,
  );
  console.log(`RESULT alerts_after_answer_p50_ms=${pct(afterAnswer, 50).toFixed(0)} p99_ms=${pct(afterAnswer, 99).toFixed(0)}`);
  console.log(
    `RESULT alerts_outbox_p50_ms=${pct(outbox, 50).toFixed(0)} p99_ms=${pct(outbox, 99).toFixed(0)} n=${outbox.length}`,
  );
  console.log(
    `RESULT alerts_checkin_rate=${loadResult.rate.toFixed(0)} p99_ms=${loadResult.p99.toFixed(0)} errors=${loadResult.errors + errors} seconds=${elapsed.toFixed(1)}`,
  );
  await stop();
  await h.close();
  return { inAppP99: pct(inApp, 99), missing };
}

// ---------------------------------------------------------------- 2. a simulated day: notifications per real incident
async function simulatedDay() {
  const h = await startHarness(backend);
  const start = Date.parse('2026-11-23T12:00:00Z');
  let t = start;
  const now = () => new Date(t);
  const feature = alertsFeature({
    db: h.database.db,
    settings: ALERT_DEFAULTS,
    now,
    publicUrl: 'http://portal.test',
    vapid: undefined,
    smsOutboxDir: path.join(h.dataDir, 'sms'),
    mailQueue: { enqueue: async () => undefined },
    emitToUser: () => undefined,
    log: () => undefined,
  });
  await quietFleet(h, now());
  // The distributor in-app and by mail; everyone else the default (in-app).
  const [dist] = await rowsOf<{ id: number }>(h, sql`select id from users where email = ${DIST}`);
  await h.database.db.execute(sql`update users set is_enable_notification_email = true where id = ${dist!.id}`);
  await h.database.db.execute(
    sql`insert into notification_rules (user_id, rules, updated_at) values (${dist!.id}, ${JSON.stringify([
      { condition: 'ANY', scope: { type: 'all' }, channels: ['inApp', 'email'], quietHours: null, digest: false },
    ])}::jsonb, now()) on conflict (user_id) do update set rules = excluded.rules`,
  );
  const devices = (
    await rowsOf<{ id: number; serial: string; group_id: number }>(
      h,
      sql`select id, serial, group_id from devices where group_id is not null order by id`,
    )
  ).map((d, i) => ({ ...d, site: String(d.group_id), phase: (i * 7) % 35, lastSeen: new Date(start) }));
  const sites = [...new Set(devices.map((d) => d.site))];
  const HOUR = 3_600_000;
  // The simulator's scenarios: two carrier outages (3 h and 2 h) and three units whose network flaps for 8 h.
  const flappers = sites.slice(2, 5).map((site) => devices.find((d) => d.site === site)!);
  const scenarios: Scenario[] = [
    { kind: 'carrier-outage', site: sites[0]!, from: start + 2 * HOUR, hours: 3 },
    { kind: 'carrier-outage', site: sites[1]!, from: start + 9 * HOUR, hours: 2 },
    ...flappers.map((d, i): Scenario => ({
      kind: 'flapping',
      serial: d.serial,
      from: start + (1 + i * 4) * HOUR,
      until: start + (9 + i * 4) * HOUR,
      periodMinutes: 30,
      offShare: 0.6,
      seed: 43 + i,
    })),
  ];
  // Ground truth, from the same rule without hysteresis: each site's minutes with a device offline.
  const offlineMinutes = new Map<string, number[]>();
  const everOffline = new Set<string>();
  const cycle = checkinCycleMinutes({ poweroffTime: '30', wakeup1Time: '5' });
  const began = performance.now();
  for (let minute = 0; minute < hours * 60; minute++) {
    t = start + minute * MINUTE;
    const checkedIn: number[] = [];
    const wentQuiet: number[] = [];
    for (const d of devices) {
      if (minute % cycle !== d.phase) continue;
      if (networkDown(scenarios, { serial: d.serial, site: d.site }, t)) wentQuiet.push(d.id);
      else {
        d.lastSeen = new Date(t);
        checkedIn.push(d.id);
      }
    }
    if (checkedIn.length)
      await h.database.db.execute(
        sql`update devices set is_online = true, last_seen_at = ${now().toISOString()}::timestamptz where id in (${sql.join(
          checkedIn.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
    if (wentQuiet.length)
      await h.database.db.execute(
        sql`update devices set is_online = false where id in (${sql.join(
          wentQuiet.map((id) => sql`${id}`),
          sql`, `,
        )})`,
      );
    for (const d of devices)
      if (offlineSince({ lastSeenAt: d.lastSeen, poweroffTime: '30', wakeup1Time: '5' }, now())) {
        offlineMinutes.set(d.site, [...(offlineMinutes.get(d.site) ?? []), minute]);
        everOffline.add(d.serial);
      }
    await feature.engine.evaluateFleet({ forecasts: false });
    await feature.engine.escalate();
  }
  const simSeconds = (performance.now() - began) / 1000;
  // Real incidents, as the scenarios say: each carrier outage, and each flapping unit that went offline by the rule.
  const real = new Map<string, number>();
  for (const sc of scenarios) {
    const site =
      sc.kind === 'carrier-outage'
        ? sc.site
        : sc.kind === 'flapping' && everOffline.has(sc.serial)
          ? devices.find((d) => d.serial === sc.serial)!.site
          : null;
    if (site !== null) real.set(site, (real.get(site) ?? 0) + 1);
  }
  // Stricter: a site's offline spells by the rule, those within the grouping window of each other one spell.
  const spellsOf = new Map<string, number>();
  for (const [site, minutes] of offlineMinutes) {
    const sorted = [...new Set(minutes)].sort((a, b) => a - b);
    let spells = 0;
    let last = -Infinity;
    for (const m of sorted) {
      if (m - last > ALERT_DEFAULTS.groupWindowMinutes) spells++;
      last = m;
    }
    spellsOf.set(site, spells);
  }
  const notices = await rowsOf<{ site_id: number | null; user_id: number; channel: string; kind: string; condition: string }>(
    h,
    sql`select i.site_id, n.user_id, n.channel, n.kind, i.condition from notifications n join incidents i on i.id = n.incident_id where n.kind = 'first' or n.kind like 'reopen%'`,
  );
  let counted = 0;
  let expected = 0;
  let bySpell = 0;
  let worst = 0;
  const bySite = new Map<string, typeof notices>();
  for (const n of notices) {
    if (n.condition !== 'OFFLINE' || n.site_id === null) continue;
    const key = String(n.site_id);
    bySite.set(key, [...(bySite.get(key) ?? []), n]);
  }
  // The flapping units alone (their sites have no outage here), each one real incident.
  const flapSites = new Set(flappers.map((d) => d.site));
  let flapCounted = 0;
  let flapExpected = 0;
  for (const [site, list] of bySite) {
    const pairs = new Set(list.map((n) => `${n.user_id}:${n.channel}`));
    const spells = real.get(site) ?? 0;
    if (flapSites.has(site)) {
      flapCounted += list.length;
      flapExpected += spells * pairs.size;
    }
    counted += list.length;
    expected += spells * pairs.size;
    bySpell += (spellsOf.get(site) ?? 0) * pairs.size;
    for (const p of pairs)
      worst = Math.max(worst, list.filter((n) => `${n.user_id}:${n.channel}` === p).length / Math.max(1, spells));
  }
  const incidents = await rowsOf<{ n: number }>(h, sql`select count(*)::int as n from incidents where condition = 'OFFLINE'`);
  if (argv.includes('--verbose')) {
    for (const [site, list] of bySite)
      console.log(
        `site ${site}: real ${real.get(site)}, spells ${spellsOf.get(site)}, notices ${list.map((n) => `${n.user_id}/${n.channel}/${n.kind}`).join(' ')}`,
      );
    console.log(
      await rowsOf(
        h,
        sql`select id, site_id, state, reopen_count, opened_at, resolved_at from incidents where condition = 'OFFLINE' order by id`,
      ),
    );
    for (const [site, minutes] of offlineMinutes) console.log(site, [...new Set(minutes)].sort((a, b) => a - b).join(','));
  }
  const realTotal = [...real.values()].reduce((a, b) => a + b, 0);
  const spellTotal = [...spellsOf.values()].reduce((a, b) => a + b, 0);
  const ratio = expected ? counted / expected : NaN;
  console.log(
    `simulated day: ${devices.length} devices at ${sites.length} sites, ${hours} h in ${simSeconds.toFixed(0)} s; ${realTotal} real incidents (${spellTotal} offline spells), ${incidents[0]!.n} incidents, ${counted} first notices and reopens over ${expected} (real incident, recipient, channel)`,
  );
  console.log(
    `RESULT alerts_notices_per_incident=${ratio.toFixed(2)} worst=${worst.toFixed(2)} per_spell=${(counted / Math.max(1, bySpell)).toFixed(2)} real=${realTotal} spells=${spellTotal} incidents=${incidents[0]!.n} notices=${counted} per_flapping_unit=${(flapCounted / Math.max(1, flapExpected)).toFixed(2)}`,
  );
  await h.close();
  return ratio;
}

if (portalMode) await portalProcess(argv[1]!, argv[2]!, argv[3]!);
else {
  const parts = new Set(
    (argv[argv.indexOf('--only') + 1] && argv.includes('--only') ? argv[argv.indexOf('--only') + 1]! : 'latency,day').split(','),
  );
  // The latency section needs PostgreSQL: its portal is a process of its own on the same database.
  const withLatency = parts.has('latency') && backend === 'postgres';
  if (parts.has('latency') && !withLatency)
    console.log('latency: skipped (needs PostgreSQL: the portal runs in its own process)');
  const lat = withLatency ? await latency() : { inAppP99: 0, missing: 0 };
  const ratio = parts.has('day') ? await simulatedDay() : 1;
  if (!(lat.inAppP99 < 5_000) || lat.missing > 0 || !(ratio <= 1.2)) process.exitCode = 1;
}
