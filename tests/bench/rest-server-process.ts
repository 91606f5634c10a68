import { fork, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

type Rss = { rss: number; peak: number; lifetimePeak?: number };
/** How the bench fleet's database was made (bench-fleet.ts FleetPrepared); null for the bare server. */
export type Prepared = { template: string; seedMs: number | null; copyMs: number; pglite: boolean } | null;

const portFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
let nextPort = 0;
/**
 * A port for the next bench server: from BENCH_PORTS (`19200-19299`, a range of one's own on a shared
 * machine), taken in turn and skipped while busy; without it 0 (the system picks one).
 */
export async function benchPort(range = process.env.BENCH_PORTS): Promise<number> {
  const m = /^(\d+)-(\d+)$/.exec(range ?? '');
  if (!m) return 0;
  const [first, last] = [Number(m[1]), Number(m[2])];
  for (let i = 0; i <= last - first; i++) {
    const port = first + ((nextPort++ + i) % (last - first + 1));
    if (await portFree(port)) return port;
  }
  throw new Error(`no free port in BENCH_PORTS ${range}`);
}
/** CPU time and event-loop time (active, idle) since the process started, in ms. */
export type Usage = { cpuMs: number; activeMs: number; idleMs: number };
export type RestServerProcess = {
  child: ChildProcess;
  base: string;
  prepared: Prepared;
  /** The pollers' upstream GETs so far per topic (a portal started with --realtime). */
  polls(): Promise<Record<string, number>>;
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
  const listen = await benchPort();
  const child = fork(path.join(here, 'rest-server.ts'), [...args, '--port', String(listen)], {
    execArgv: ['--import', 'tsx', ...profile],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { port, prepared } = await new Promise<{ port: number; prepared: Prepared }>((resolve, reject) => {
    child.on(
      'message',
      (m: { port?: number; prepared?: Prepared }) => m.port && resolve({ port: m.port, prepared: m.prepared ?? null }),
    );
    child.on('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  // Sends a message and resolves with the `key` of the first answer that carries one.
  const ask = <T>(key: 'rss' | 'usage' | 'polls', message: string) =>
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
    prepared,
    polls: () => ask<Record<string, number>>('polls', 'polls'),
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
