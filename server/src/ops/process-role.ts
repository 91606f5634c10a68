/**
 * What one process does (docs/operations.md, 'Running it scaled'):
 * - `all` (`npm start`): HTTP, Socket.IO, pollers, jobs, schedules and the demo simulator in one process,
 *   on PGlite or PostgreSQL, Redis optional: the one-command default.
 * - `server` (`npm run start:server`): HTTP and Socket.IO only; jobs are queued for the workers and the
 *   sockets' watches are shared in Redis for the workers' pollers. Needs DATABASE_URL and REDIS_URL.
 * - `worker` (`npm run start:worker`): pollers, queued jobs, the outbox relay and the scheduled ticks;
 *   HTTP only for /healthz, /readyz and /metrics. Needs DATABASE_URL, REDIS_URL and DEVICE_API_URL.
 * - `gateway` (`npm run start:gateway`): the devices' check-ins (/device/v1) and nothing of the portal
 *   (processes/gateway.ts), so a busy portal does not keep devices waiting. Needs DATABASE_URL only.
 */
const ROLES = ['all', 'server', 'worker', 'gateway'] as const;
export type ProcessRole = (typeof ROLES)[number];

export function processRole(argv: string[], env: NodeJS.ProcessEnv = process.env): ProcessRole {
  let given: string | undefined = env.FLEET_ROLE || undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--role=')) given = a.slice('--role='.length);
    else if (a === '--role') given = argv[++i];
  }
  if (given === undefined) return 'all';
  if ((ROLES as readonly string[]).includes(given)) return given as ProcessRole;
  throw new Error(`Unknown role '${given}': use ${ROLES.map((r) => `--role=${r}`).join(', ')}`);
}

/** What a scaled role needs besides the one-command defaults; answers the problems, empty when none. */
export function roleRequirements(
  role: ProcessRole,
  config: { databaseUrl?: string | undefined; redisUrl?: string | undefined; deviceApiUrl?: string | undefined },
): string[] {
  if (role === 'all') return [];
  const problems: string[] = [];
  // Several processes share one database and one Redis: an embedded database or an in-process queue
  // would give each process its own, and none would see the others' work.
  if (!config.databaseUrl) problems.push(`${role} needs DATABASE_URL (PostgreSQL shared by every process)`);
  // The gateway writes check-ins to the database and uses nothing in Redis.
  if (!config.redisUrl && role !== 'gateway')
    problems.push(`${role} needs REDIS_URL (queue, socket adapter and poll registry shared by every process)`);
  if (role === 'worker' && !config.deviceApiUrl)
    problems.push('worker needs DEVICE_API_URL (the servers it polls, e.g. the proxy in front of them)');
  return problems;
}

/** The secrets every process of a deployment must share (config.ts generates them per DATA_DIR in development). */
export const SHARED_SECRETS = ['SECRET_KEY', 'MAINTENANCE_TOKEN', 'SERVICE_TOKEN'] as const;

/**
 * A scaled role takes its secrets from the environment only, in development too: a `start:server` or
 * `start:worker` that generated its own (per DATA_DIR, as `npm start` does) would quietly disagree with
 * its neighbours (a token signed by one server refused by the next, the workers' service token refused
 * by every server). Checked before the configuration is loaded, so a refused start writes no secrets file.
 */
export function sharedSecretProblems(role: ProcessRole, env: NodeJS.ProcessEnv): string[] {
  if (role === 'all') return [];
  const missing = SHARED_SECRETS.filter((name) => !env[name]?.trim());
  if (!missing.length) return [];
  return [
    `${role} needs ${missing.join(', ')} set in the environment, the same values in every server and worker ` +
      `(development secrets are generated per DATA_DIR, so processes would disagree; only npm start generates them)`,
  ];
}
