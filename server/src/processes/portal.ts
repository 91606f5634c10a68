import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { realClock } from '@fleet/shared';
import { startDemoSimulator, type Simulator } from '@fleet/workers';
import { createApp } from '../app.ts';
import type { Config } from '../config/config.ts';
import type { Database } from '../db/client.ts';
import { users } from '../db/schema.ts';
import type { Mailer } from '../mail/index.ts';
import { deviceAccessHub } from '../partners/index.ts';
import { sessionHub, startRealtime } from '../realtime/index.ts';
import { DEMO_PASSWORD } from '../seed/demo-data.ts';
import { demoSimulatorDevices } from '../seed/demo-simulator-keys.ts';
import { describeAddress, opsMiddleware } from '../ops/http.ts';
import { jobQueueFor } from '../ops/job-queue.ts';
import type { LogFormat } from '../ops/logger.ts';
import type { ProcessMetrics } from '../ops/metrics.ts';
import type { gracefulShutdown } from '../ops/shutdown.ts';
import { startSchedules } from './schedules.ts';

/**
 * The portal process: `npm start` (role `all`) and `npm run start:server` (role `server`). It answers browsers
 * (the REST API, the built client, Socket.IO) and, in the one-command run, also devices, the pollers, the
 * queued jobs, the scheduled ticks (schedules.ts) and the demo fleet's simulator. A `server` only answers:
 * its jobs go to the workers through BullMQ, its sockets' watches to Redis for the workers' pollers.
 */
export async function startPortal(opts: {
  role: 'all' | 'server';
  config: Config;
  database: Database;
  mailer: Mailer;
  logger: Logger;
  logFormat: LogFormat;
  log: (m: string, e?: unknown) => void;
  metrics: ProcessMetrics;
  shutdown: ReturnType<typeof gracefulShutdown>;
  redisPrefix: string;
  clientDir: string;
  env: NodeJS.ProcessEnv;
}): Promise<http.Server> {
  const { role, config, database, mailer, logger, logFormat, log, metrics, shutdown, redisPrefix, env } = opts;
  const { queue, depth } = jobQueueFor({
    config,
    database,
    mailer,
    runWorker: role === 'all',
    redisPrefix: config.redisPrefix,
    log,
  });
  if (depth) metrics.watchQueue(depth);
  const sessions = sessionHub({ redisUrl: config.redisUrl, redisPrefix, log });
  const deviceAccess = deviceAccessHub({ redisUrl: config.redisUrl, redisPrefix, log });
  // The one clock of the rules (shared/src/rules/clock.ts): the portal runs on real time; the season
  // runner and its cross-check drive a simulated one (workers/src/simulator, docs/simulator.md).
  const clock = realClock;
  const app = createApp({
    config,
    clock,
    database,
    mailer,
    queue,
    sessions,
    deviceAccess,
    log,
    ...(config.redisPrefix ? { redisPrefix: config.redisPrefix } : {}),
    clientDir: opts.clientDir,
    ops: opsMiddleware({ logger, metrics, draining: shutdown.middleware, quietSuccess: logFormat === 'text' }),
    metrics: () => metrics.text(),
  });
  const server = http.createServer(app);
  // Browsers subscribe over Socket.IO. In the one-command run this process polls the device API (itself
  // unless DEVICE_API_URL says otherwise) for what someone watches; a `start:server` only records the
  // watches in Redis and the workers poll. With REDIS_URL, every process shares one poll per subject.
  const realtime = await startRealtime(server, {
    db: database.db,
    auth: app.auth,
    sessions,
    deviceAccess,
    servicePlans: app.servicePlanEvents,
    serviceToken: config.serviceToken,
    deviceApiUrl: config.deviceApiUrl ?? `http://127.0.0.1:${config.port}`,
    redisUrl: config.redisUrl,
    redisPrefix,
    pollers: role === 'all',
    // Portal writes nudge the pollers (in process, or through Redis to whichever process polls).
    nudges: app.nudges.source,
    // Check-ins and portal writes name the devices whose pins may have changed: the pin deltas' source.
    pinChanges: app.pinChanges.source,
    countPoll: metrics.countPoll,
    log,
  });
  metrics.watchSockets(() => realtime.io.engine.clientsCount);
  // The one-command run keeps the fleet's schedules itself; a scaled run leaves them to the workers.
  // Alerts: every server process dispatches due notifications (claimed with SKIP LOCKED, so never twice);
  // the one-command run also evaluates the fleet every minute and escalates (start:worker does it scaled).
  const stopAlerts = app.alerts.start({ fleet: role === 'all' });
  const stopSchedules =
    role === 'all'
      ? startSchedules({
          db: database.db,
          config,
          now: () => clock.now(),
          sessions,
          log,
          queue: app.queue,
          devicesChanged: (serials) => {
            app.nudges.devicesChanged(serials);
            app.pinChanges.devicesChanged(serials);
          },
        })
      : () => undefined;
  let simulator: Simulator | null = null;
  shutdown.attach(server, () => {
    // At the transport, so browsers reconnect (elsewhere, through the proxy) and resubscribe.
    for (const socket of realtime.io.of('/').sockets.values()) socket.conn.close();
  });
  shutdown.add(
    ['schedules', stopSchedules],
    ['simulator', () => simulator?.stop()],
    ['realtime', () => realtime.close()],
    ['alerts', () => stopAlerts()],
    // Jobs this process runs (the one-command run) finish; queued ones stay in Redis for the workers.
    ['queue', () => app.queue.close()],
    [
      'redis',
      () => {
        sessions.close();
        deviceAccess.close();
        app.redis?.close();
        void app.nudges.close();
        void app.pinChanges.close();
        void app.aggregates.close();
      },
    ],
    ['database', () => database.close()],
  );

  server.listen(config.port, config.host, async () => {
    log(
      role === 'all'
        ? `Fleet portal listening on ${config.publicUrl}`
        : `server: listening on ${describeAddress(server)} (public ${config.publicUrl})`,
    );
    if (role !== 'all') return;
    if (!config.isProduction) {
      const demo = ['distributor@demo.test', 'client@demo.test', 'partner@demo.test'];
      const present = [];
      for (const email of demo) {
        const [u] = await database.db
          .select({ role: users.role, userType: users.userType })
          .from(users)
          .where(eq(users.email, email));
        if (u)
          present.push(
            `  ${email.padEnd(24)} ${DEMO_PASSWORD}   (${u.userType === 'market-partner' ? 'market-partner' : u.role})`,
          );
      }
      if (present.length) console.log(`Demo accounts:\n${present.join('\n')}`);
    }
    if (config.seedDemo && env.SIMULATOR !== 'off') {
      // Only with the demo, and only the demo's own devices: a restart keeps their secrets, and a device
      // the simulator did not key (rotated by a distributor, provisioned elsewhere, real) is left alone.
      try {
        const sim = await startDemoSimulator(
          {
            baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            // The demo's simulated crews record their refills with the technicians' credential.
            maintenanceToken: config.maintenanceToken,
            listDevices: async () => {
              const demo = await demoSimulatorDevices(database.db, config.secretKey);
              if (demo.keyed || demo.skipped)
                console.log(`simulator: ${demo.keyed} demo devices keyed, ${demo.skipped} devices with other secrets left alone`);
              return demo.devices;
            },
          },
          console.log,
        );
        if (shutdown.isDraining()) await sim.stop();
        else simulator = sim;
      } catch (err) {
        log('fleet simulator did not start', err);
      }
    }
  });
  return server;
}
