/**
 * Report benchmark (issue 12 budget: a one-year report for 500 devices, the .xlsx and the .pdf each under
 * 10 s, the server's peak RSS growth under 300 MB while it builds one).
 *
 *   npm run bench:report                    # PostgreSQL at 127.0.0.1:5432, database fleet_bench_500_50_365 (created and seeded once)
 *   npm run bench:report -- --pglite        # the embedded database (seeded into a temporary folder)
 *   npm run bench:report -- --devices 500 --sites 50 --days 365 --runs 3
 *
 * The portal runs in this process behind a real HTTP server and is called as the client calls it: the .xlsx is
 * POST /api/v1/downloadReport; the .pdf is POST /api/v1/report then POST /api/pdf with its answer; the mail
 * is the report-email port (one build, both files). Beside them a bare exceljs streaming writer writes the
 * same rows (no styles, no totals), the floor for the .xlsx. RSS is sampled every 50 ms by a worker thread
 * (process-wide, and not starved when a build blocks the main thread); growth is the peak over the RSS
 * just before the build. Prints a table and RESULT lines; exits 1 when a figure is over its budget.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Worker } from 'node:worker_threads';
import ExcelJS from 'exceljs';
import { addDays, localDateOf, type ReportAnswer } from '@fleet/shared';
import { REPORT_COLUMNS } from '../../server/src/reports/report-files.ts';
import { reportRenderer } from '../../server/src/reports/report-mail.ts';
import { openBenchFleet, startBenchPortal } from './bench-fleet.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const usePglite = process.argv.includes('--pglite');
const devices = arg('devices', 500);
const sites = arg('sites', 50);
const days = arg('days', 365);
const runs = arg('runs', 3);
const BUDGET_MS = 10_000;
const BUDGET_RSS_MB = 300;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-bench-report-'));
const database = await openBenchFleet({ pglite: usePglite, devices, sites, days, dataDir });
const portal = await startBenchPortal(database, dataDir);
const { base } = portal;
const token = await portal.login('distributor@demo.test');
const distributorId = (
  (await database.db.execute(`select id from users where email = 'distributor@demo.test'` as never)) as unknown as {
    rows: { id: number }[];
  }
).rows[0]!.id;
const serials = (
  (await database.db.execute(
    `select serial from devices where group_id is not null order by id limit ${devices}` as never,
  )) as unknown as { rows: { serial: string }[] }
).rows.map((r) => r.serial);
const endDate = localDateOf(new Date(), 'UTC');
const query = { deviceSerials: serials, startDate: addDays(endDate, -(days - 1)), endDate };
const events = (
  (await database.db.execute(`select count(*)::int as n from pump_events` as never)) as unknown as { rows: { n: number }[] }
).rows[0]!.n;

const post = async (p: string, body: unknown): Promise<Buffer> => {
  const res = await fetch(`${base}${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', Authorization: `Token ${token}` },
    body: JSON.stringify(body),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${p} answered ${res.status}: ${bytes.toString('utf8', 0, 300)}`);
  return bytes;
};

/** RSS sampled every 50 ms in a worker thread (RSS is process-wide); stop() answers the peak. */
function rssSampler() {
  const shared = new BigInt64Array(new SharedArrayBuffer(16));
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     const peak = workerData;
     const sample = () => { const rss = BigInt(process.memoryUsage.rss()); if (rss > Atomics.load(peak, 0)) Atomics.store(peak, 0, rss); };
     sample();
     const timer = setInterval(() => { sample(); if (Atomics.load(peak, 1) === 1n) clearInterval(timer); }, 50);`,
    { eval: true, workerData: shared },
  );
  return {
    async stop(): Promise<number> {
      Atomics.store(shared, 1, 1n);
      await new Promise((r) => worker.once('exit', r));
      return Number(Atomics.load(shared, 0));
    },
  };
}

type Row = { what: string; ms: number[]; rssMb: number[]; bytes: number; budgeted: boolean };
async function measure(what: string, budgeted: boolean, fn: () => Promise<number>): Promise<Row> {
  const row: Row = { what, ms: [], rssMb: [], bytes: 0, budgeted };
  for (let i = 0; i < runs; i++) {
    const before = process.memoryUsage.rss();
    const sampler = rssSampler();
    const t = performance.now();
    row.bytes = await fn();
    row.ms.push(performance.now() - t);
    const peak = Math.max(await sampler.stop(), process.memoryUsage.rss());
    row.rssMb.push((peak - before) / 1048576);
  }
  return row;
}

/** The bare floor: exceljs's streaming writer, one row per device, the same cells, no styles or totals. */
async function bareStreamingXlsx(report: ReportAnswer): Promise<number> {
  const out = new PassThrough();
  let bytes = 0;
  out.on('data', (c: Buffer) => (bytes += c.length));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const ws = wb.addWorksheet('Report');
  ws.addRow(REPORT_COLUMNS.map((c) => c.header)).commit();
  for (const r of report.devices) ws.addRow(REPORT_COLUMNS.map((c) => c.value(r))).commit();
  ws.commit();
  await wb.commit();
  return bytes;
}

// Warm up once (module loads, font parsing, plans), then measure.
const warm = JSON.parse((await post('/api/v1/report', query)).toString('utf8')) as ReportAnswer;
await post('/api/pdf', warm);
await post('/api/v1/downloadReport', query);

const reports = reportRenderer(database.db);
let requestNo = 0;
const rows = [
  await measure('.xlsx  POST /downloadReport', true, async () => (await post('/api/v1/downloadReport', query)).length),
  await measure('.pdf   POST /report + /api/pdf', true, async () => {
    const data = JSON.parse((await post('/api/v1/report', query)).toString('utf8')) as ReportAnswer;
    return (await post('/api/pdf', data)).length;
  }),
  await measure('mail   build once, both files', true, async () => {
    const r = await reports.render({
      requestedBy: distributorId,
      ...query,
      requestKey: `bench-${process.pid}-${Date.now()}-${requestNo++}`,
    });
    return r.attachments.reduce((n, a) => n + a.content.length, 0);
  }),
  await measure('bare exceljs streaming writer', false, () => bareStreamingXlsx(warm)),
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const over = (r: Row) => r.budgeted && (Math.max(...r.ms) >= BUDGET_MS || Math.max(...r.rssMb) >= BUDGET_RSS_MB);
console.log(
  `\n${usePglite ? 'PGlite' : 'PostgreSQL'}: ${serials.length} devices, ${query.startDate}..${query.endDate} (${days} days), ${warm.devices.length} rows, ${events} dispense events in the database, ${runs} runs, ${os.cpus().length} cores`,
);
console.log(
  `${'build'.padEnd(34)} ${'median ms'.padStart(10)} ${'max ms'.padStart(9)} ${'peak RSS +MB'.padStart(13)} ${'size kB'.padStart(9)}  budget`,
);
for (const r of rows) {
  const budget = r.budgeted ? (over(r) ? 'OVER' : `< ${BUDGET_MS / 1000} s, < ${BUDGET_RSS_MB} MB`) : '(reference)';
  console.log(
    `${r.what.padEnd(34)} ${median(r.ms).toFixed(0).padStart(10)} ${Math.max(...r.ms)
      .toFixed(0)
      .padStart(9)} ${Math.max(...r.rssMb)
      .toFixed(1)
      .padStart(13)} ${(r.bytes / 1024).toFixed(0).padStart(9)}  ${budget}`,
  );
}
for (const r of rows) {
  const name = r.what
    .split(/\s{2,}/)[0]!
    .trim()
    .replace(/^\./, '')
    .replace(/\s+/g, '_');
  console.log(
    `RESULT report_${name}_ms=${median(r.ms).toFixed(0)} max_ms=${Math.max(...r.ms).toFixed(0)} peak_rss_growth_mb=${Math.max(...r.rssMb).toFixed(1)} bytes=${r.bytes}${r.budgeted ? ` ${over(r) ? 'OVER_BUDGET' : 'ok'}` : ''}`,
  );
}
await portal.close();
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
process.exit(rows.some(over) ? 1 : 0);
