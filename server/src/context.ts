import type { ServicePlanProgress } from '@fleet/shared';
import type { JobName, JobQueue } from '@fleet/workers';
import type { Config } from './config/config.ts';
import type { Db } from './db/client.ts';
import type { Mailer } from './mail/index.ts';
import type { AggregateCache } from './lib/aggregate-cache.ts';
import type { Quota } from './auth/index.ts';
import type { SessionEnder } from './realtime/index.ts';
import type { DeviceAccessNotifier } from './partners/index.ts';

/** What feature modules are built from. Each feature names what it uses from it; nothing is global. */
export type AppContext = {
  db: Db;
  config: Config;
  mailer: Mailer;
  queue: JobQueue<JobName>;
  /** Where uploaded files live (DATA_DIR/uploads), served under /uploads. */
  uploadsDir: string;
  now: () => Date;
  /** Ends a user's sockets everywhere (deactivation, password reset): `sessions.endUserSessions(id, 'deactivated')`. */
  sessions: SessionEnder;
  /** Takes devices out of a user's live socket subscriptions (a market partner losing exclusive devices). */
  deviceAccess: DeviceAccessNotifier;
  log: (msg: string, err?: unknown) => void;
  /** Devices a portal write changed: their watchers' polls run now instead of at the next period (workers/src/realtime/nudge.ts). */
  pollNudge?: { devicesChanged(serials: string[]): void };
  /** Fleet aggregates per scope (overview, deviceGroup, counties), emptied by portal writes (lib/aggregate-cache.ts). */
  aggregates?: AggregateCache;
  /** Pushes a service plan's progress to its owner's sockets (service-day/plan-events.ts). */
  servicePlanEvents?: { progressed(ownerId: number, payload: ServicePlanProgress): void };
  /** Report mails a user may send: 30 an hour (auth/limits.ts `quota`); unlimited when absent (unit tests). */
  reportMails?: Quota;
};
