import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

type Rss = { rss: number; peak: number; lifetimePeak?: number };
/** CPU time and event-loop time (active, idle) since the process started, in ms. */
export type Usage = { cpuMs: number; activeMs: number; idleMs: number };
export type RestServerProcess = {
  child: ChildProcess;
  base: string;
  /** RSS now and its peak (the kernel's VmHWM); `reset`: the peak starts again from now (answers the peak until then as lifetimePeak). */
  rss(reset?: 'reset'): Promise<Rss>;
  /** Its CPU and event-loop time so far (the difference of two readings is what it did between them). */
  usage(): Promise<Usage>;
  stop(): Promise<void>;
};

/** A child process of tests/bench/rest-server.ts (its own event loop and RSS); resolves once it listens. */
export async function startRestServer(args: string[], env: Record<string, string> = {}): Promise<RestServerProcess> {
  // BENCH_CPU_PROF=<dir>: each server process writes a V8 CPU profile there when it stops (open it in Chrome's DevTools).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_CPU_PROF)] : [];
  const child = fork(path.join(here, 'rest-server.ts'), args, {
    execArgv: ['--import', 'tsx', ...profile],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.on('message', (m: { port?: number }) => m.port && resolve(m.port));
    child.on('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  // Sends a message and resolves with the `key` of the first answer that carries one.
  const ask = <T>(key: 'rss' | 'usage', message: string) =>
    new Promise<T>((resolve) => {
      const on = (m: Record<string, unknown>) => {
        if (!m[key]) return;
        child.off('message', on);
        resolve(m[key] as T);
      };
      child.on('message', on);
      child.send(message);
    });
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    rss: (reset) => ask<Rss>('rss', reset ? 'rss-reset' : 'rss'),
    usage: () => ask<Usage>('usage', 'usage'),
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('stop');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}
