import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Check-ins at a fixed rate from `devices` devices of the bench fleet (their secrets rotated for it),
 * open-loop from a child process (tests/bench/ingest.bench.ts --child, the ingest section's load):
 * sends are scheduled at the rate whatever the answers, latency counted from the scheduled time. The
 * secrets are rotated through the portal at `base`; the check-ins go to `opts.gateway` when given (a
 * gateway process, `npm run start:gateway`), else to the portal itself.
 */
export async function checkinLoad(
  base: string,
  auth: Record<string, string>,
  listBody: Buffer,
  opts: { rate: number; seconds: number; devices: number; gateway?: string },
) {
  type ListItem = { serial: string; left_pump_type: string; right_pump_type: string };
  const placed = (JSON.parse(listBody.toString()) as ListItem[]).slice(0, opts.devices);
  const fleet: { serial: string; secret: string; leftPumpType: string; rightPumpType: string }[] = [];
  for (let i = 0; i < placed.length; i += 20) {
    await Promise.all(
      placed.slice(i, i + 20).map(async (d) => {
        const res = await fetch(`${base}/api/v1/deviceSecret/${encodeURIComponent(d.serial)}`, { method: 'POST', headers: auth });
        const { secret } = (await res.json()) as { secret: string };
        fleet.push({ serial: d.serial, secret, leftPumpType: d.left_pump_type, rightPumpType: d.right_pump_type });
      }),
    );
  }
  const today = new Date();
  // Each device checks in every devices/rate seconds carrying 30 simulated minutes, in the New Orleans morning (as ingest.bench.ts).
  const job = {
    kind: 'rate',
    baseUrl: opts.gateway ?? base,
    fleet,
    rate: opts.rate,
    seconds: opts.seconds,
    speed: 1800 / (fleet.length / opts.rate),
    simStart: Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate(), 17, 0),
    maxOutstanding: 1000,
  };
  const file = path.join(os.tmpdir(), `bench-checkin-job-${process.pid}.json`);
  fs.writeFileSync(file, JSON.stringify(job));
  const child = fork(path.join(here, 'ingest.bench.ts'), ['--child', file], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  type Result = {
    sent: number;
    errors: number;
    skipped?: number;
    errorStatuses?: Record<string, number>;
    rate: number;
    p50: number;
    p99: number;
    max: number;
    seconds: number;
    timeline: [number, number][];
  };
  let go!: () => void;
  const started = new Promise<void>((r) => (go = r));
  const result = new Promise<Result>((resolve, reject) => {
    child.on(
      'message',
      (m: {
        kind: string;
        result?: Omit<Result, 'timeline' | 'errorStatuses'>;
        timeline?: Result['timeline'];
        errorStatuses?: Result['errorStatuses'];
      }) => {
        if (m.kind === 'ready') {
          child.send({ go: true });
          go();
        } else if (m.kind === 'done') resolve({ ...m.result!, timeline: m.timeline ?? [], errorStatuses: m.errorStatuses ?? {} });
      },
    );
    child.on('exit', (code) => reject(new Error(`check-in load exited with ${code}`)));
  }).finally(() => fs.rmSync(file, { force: true }));
  await started;
  return { devices: fleet.length, result };
}
