/**
 * Slow-host emulation for `npm run bench -- --slow-host 4900` (issue 46): the budgets are for the slow
 * hosts of this machine class (the portal's /healthz about 4,900 req/s), and hosts vary by almost three
 * times. On a faster host a calibrated CPU load runs beside the bench (cpu-load.ts, three processes a core,
 * each burning a duty cycle of every 20 ms) until /healthz reads about the target; the bench then runs
 * with that load and prints the /healthz rate it achieved beside the table. On a host already at or below
 * the target nothing is added and the run says so.
 */
import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

/** One step of the calibration: the duty tried and the /healthz rate it gave. */
export type CalibrationStep = { duty: number; rps: number };
export type Calibration = { duty: number; rps: number; steps: CalibrationStep[]; alreadySlow: boolean };

/**
 * Finds the duty cycle at which `measure` (the /healthz rate under that load) reads `target` within
 * `tolerance` (a share), by bisection between no load and `maxDuty`: the rate falls as the load grows.
 * Answers the closest step when none is within tolerance after `maxSteps`; duty 0 and alreadySlow when
 * the host without load is already at or below target × (1 + tolerance).
 */
export async function calibrate(
  measure: (duty: number) => Promise<number>,
  opts: { target: number; tolerance?: number; maxSteps?: number; maxDuty?: number },
): Promise<Calibration> {
  const tolerance = opts.tolerance ?? 0.05;
  const steps: CalibrationStep[] = [];
  const step = async (duty: number) => {
    const rps = await measure(duty);
    steps.push({ duty, rps });
    return rps;
  };
  const idle = await step(0);
  if (idle <= opts.target * (1 + tolerance)) return { duty: 0, rps: idle, steps, alreadySlow: true };
  let [lo, hi] = [0, opts.maxDuty ?? 0.95];
  for (let i = 0; i < (opts.maxSteps ?? 7); i++) {
    const duty = (lo + hi) / 2;
    const rps = await step(duty);
    if (Math.abs(rps - opts.target) <= opts.target * tolerance) break;
    if (rps > opts.target) lo = duty;
    else hi = duty;
  }
  const best = steps.slice(1).reduce((a, b) => (Math.abs(b.rps - opts.target) < Math.abs(a.rps - opts.target) ? b : a));
  return { duty: best.duty, rps: best.rps, steps, alreadySlow: false };
}

/**
 * The load's processes, all at one duty cycle: three a core. With one a core, a host at 12,000 req/s read
 * 7,600-8,500 at the highest duty (the scheduler shares a core evenly between two busy processes, so the
 * portal kept about half of each); with three it keeps about a quarter at that duty.
 */
export function startCpuLoad(processes = os.cpus().length * 3) {
  const children: ChildProcess[] = Array.from({ length: processes }, () =>
    fork(path.join(import.meta.dirname, 'cpu-load.ts'), ['0'], { execArgv: ['--import', 'tsx'], stdio: 'ignore' }),
  );
  let duty = 0;
  return {
    get duty() {
      return duty;
    },
    /** Sets the duty and waits a moment for the scheduler to settle on it. */
    async set(next: number) {
      duty = next;
      for (const c of children) c.send({ duty: next });
      await new Promise((r) => setTimeout(r, 500));
    },
    stop() {
      for (const c of children) if (c.connected) c.send('stop');
      for (const c of children) setTimeout(() => c.kill('SIGKILL'), 2000).unref();
    },
  };
}

export type CpuLoad = ReturnType<typeof startCpuLoad>;

/**
 * The load started and calibrated against `healthz` (the portal's /healthz rate at the duty set), each step
 * given to `step`; left at the duty found, or stopped (load null) on a host already at or below the target.
 * The caller stops a load it is given when its measurement ends.
 */
export async function calibratedLoad(
  healthz: () => Promise<number>,
  target: number,
  step: (duty: number, rps: number) => void = () => undefined,
): Promise<{ load: CpuLoad | null; calibration: Calibration }> {
  const load = startCpuLoad();
  const calibration = await calibrate(
    async (duty) => {
      await load.set(duty);
      const rps = await healthz();
      step(duty, rps);
      return rps;
    },
    { target },
  );
  if (calibration.alreadySlow) {
    load.stop();
    return { load: null, calibration };
  }
  await load.set(calibration.duty);
  return { load, calibration };
}

/** One line on what `calibratedLoad` found, for a script's output. */
export function calibrationLine({ duty, rps, alreadySlow }: Calibration): string {
  return alreadySlow
    ? `slow host: /healthz ${Math.round(rps)} req/s without a load, none added`
    : `slow host: a load of ${Math.round(duty * 100)} % of each core, /healthz ${Math.round(rps)} req/s`;
}
