import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether Redis tests run: in CI (CI=true) an unreachable Redis fails the run instead of skipping. */
export async function redisAvailable(): Promise<boolean> {
  const r = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: () => null,
  });
  try {
    await r.connect();
    return (await r.ping()) === 'PONG';
  } catch (err) {
    if (process.env.CI === 'true')
      throw new Error(`CI=true and Redis at ${TEST_REDIS_URL} is unreachable: ${(err as Error).message}`, { cause: err });
    return false;
  } finally {
    r.disconnect();
  }
}

/**
 * Whether the tests that run (and kill) a redis-server of their own can run: redis-server is on PATH. In CI
 * (CI=true, where .ci/run starts Redis with it) a missing binary fails the run instead of skipping them.
 */
export function redisServerInstalled(): boolean {
  const found = spawnSync('redis-server', ['--version']).status === 0;
  if (!found && process.env.CI === 'true')
    throw new Error('CI=true and redis-server is not on PATH: the Redis fault tests need it (apt-get install -y redis-server)');
  return found;
}

/** A redis-server of the test's own on `port`, without persistence (a restart loses everything), answering PING before this resolves. */
export async function startRedisServer(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const probe = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
  probe.on('error', () => undefined);
  for (let i = 0; i < 100; i++) {
    try {
      await probe.connect();
      if ((await probe.ping()) === 'PONG') {
        probe.disconnect();
        return child;
      }
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  throw new Error(`redis-server did not start on ${port}`);
}

/** Kills a redis-server of startRedisServer (SIGKILL: what it held is gone). */
export async function stopRedisServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}
