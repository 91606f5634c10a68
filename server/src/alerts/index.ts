/**
 * Alerts (issue 43, docs/alerts.md): conditions -> alerts (hysteresis) -> incidents (grouped by site and
 * cause) -> notifications (outbox rows, one per incident, recipient, channel and kind) -> channels
 * (in-app socket, email through the mail outbox, SMS, Web Push), with escalation of what nobody
 * acknowledged. The rules are pure functions in shared/src/rules/alerts.
 */
import type { Agent } from 'node:https';
import type { AlertSettings } from '@fleet/shared';
import { bullmqWakeups, timerWakeups, type Wakeups } from '@fleet/workers';
import type { Db } from '../db/client.ts';
import { maintenanceRepository } from '../maintenance/index.ts';
import { serviceDayRepository } from '../service-day/index.ts';
import { bullPrefixOf } from '../ops/job-queue.ts';
import { alertsEngine, type AlertsEngine } from './alerts.engine.ts';
import { alertsRepository } from './alerts.repository.ts';
import { alertsRoutes } from './alerts.routes.ts';
import { alertsService } from './alerts.service.ts';
import {
  emailChannel,
  folderSmsProvider,
  inAppChannel,
  pushChannel,
  smsChannel,
  type ChannelSet,
  type SmsProvider,
} from './channels.ts';
import type { IncidentNotice } from '@fleet/shared';

export { type ChannelSet, type SmsProvider } from './channels.ts';

export type AlertsOptions = {
  db: Db;
  settings: AlertSettings;
  now: () => Date;
  publicUrl: string;
  vapid: { publicKey: string; privateKey: string; subject: string } | undefined;
  smsOutboxDir: string;
  /** The mail outbox queue (app.queue). */
  mailQueue: { enqueue(name: 'alert-notice', payload: unknown, o: { idempotencyKey: string }): Promise<void> };
  emitToUser: (userId: number, payload: IncidentNotice & { notificationId: number }) => void;
  log: (m: string, e?: unknown) => void;
  sms?: SmsProvider;
  /** Channels replaced (tests: a failing channel, a push agent). */
  channels?: Partial<ChannelSet>;
  pushAgent?: Agent;
  /**
   * When what falls due later wakes the loop: BullMQ delayed jobs on Redis (alertsFeatureOf with REDIS_URL),
   * else timers in this process (the default).
   */
  wakeups?: Wakeups;
};

/**
 * The alerts of one process: the routes, the engine, and its loop. The loop dispatches due notifications
 * within `dispatchEveryMs` (at once when something was recorded in this process) and, when `fleet` is on
 * (one process per deployment: `npm start`, or the worker that claimed the minute), evaluates the fleet and
 * escalates every `fleetEveryMs`.
 */
export function alertsFeature(opts: AlertsOptions) {
  const repo = alertsRepository(opts.db);
  const maintenance = maintenanceRepository(opts.db);
  const serviceDay = serviceDayRepository(opts.db);
  let wakeLoop = () => undefined as void;
  const wakeups = opts.wakeups ?? timerWakeups(opts.log);
  const channels: ChannelSet = {
    inApp: inAppChannel(opts.emitToUser),
    email: emailChannel(opts.mailQueue),
    sms: smsChannel(opts.sms ?? folderSmsProvider(opts.smsOutboxDir)),
    push: pushChannel({
      vapid: opts.vapid,
      subscriptions: (id) => repo.pushSubscriptions(id),
      forget: (id) => repo.deletePushSubscription(id),
      ...(opts.pushAgent ? { agent: opts.pushAgent } : {}),
      log: opts.log,
    }),
    ...opts.channels,
  };
  const engine: AlertsEngine = alertsEngine({
    repo,
    settings: opts.settings,
    now: opts.now,
    channels,
    publicUrl: opts.publicUrl,
    slotTotals: (ids, since, until) => maintenance.slotTotals(ids, since, until),
    batteryMinimums: (ids, since) => serviceDay.batteryDailyMinimums(ids, since),
    log: opts.log,
    wake: () => wakeLoop(),
    wakeAt: (w, now) => wakeups.schedule(w, now),
  });
  const service = alertsService({ repo, now: opts.now, settings: opts.settings, vapidPublicKey: opts.vapid?.publicKey });

  let timers: NodeJS.Timeout[] = [];
  let running: Promise<unknown> | undefined;
  let again = false;
  /** One dispatch pass at a time; a wake during a pass runs another after it. Answers the pass's end. */
  function dispatchSoon(): Promise<unknown> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        try {
          // A full batch: more may be due right away.
          while ((await engine.dispatch()).claimed >= 200);
        } catch (err) {
          opts.log('alerts: dispatch failed (database?)', err);
        }
      } while (again);
    })().finally(() => (running = undefined));
    return running;
  }

  return {
    routes: alertsRoutes(service),
    engine,
    service,
    channels,
    /** Starts the loop; answers its stop. */
    start(o: { dispatchEveryMs?: number; fleet?: boolean; fleetEveryMs?: number } = {}) {
      wakeLoop = () => void dispatchSoon();
      // The wake-ups' processors: what falls due runs at its time; the poll below and the minute job stay as
      // the safety net (a wake-up lost in a Redis restart costs latency, never a notice).
      const stopWakeups = wakeups.start(
        async (kind) => {
          if (kind === 'escalate') await engine.escalate();
          else await dispatchSoon();
        },
        () => engine.rearm(),
      );
      const dispatch = setInterval(() => void dispatchSoon(), o.dispatchEveryMs ?? 1_000);
      dispatch.unref();
      timers.push(dispatch);
      if (o.fleet) {
        const fleet = setInterval(() => {
          void (async () => {
            try {
              await engine.evaluateFleet();
              await engine.escalate();
            } catch (err) {
              opts.log('alerts: the minute job failed', err);
            }
          })();
        }, o.fleetEveryMs ?? 60_000);
        fleet.unref();
        timers.push(fleet);
      }
      return async () => {
        for (const t of timers) clearInterval(t);
        timers = [];
        wakeLoop = () => undefined;
        await stopWakeups();
        await engine.flushCheckins().catch(() => undefined);
        await running;
        await wakeups.close();
      };
    },
    /** Closes the wake-ups' connections (a process that records alerts without running the loop: the gateway). */
    close: () => wakeups.close(),
  };
}
export type AlertsFeature = ReturnType<typeof alertsFeature>;

/**
 * The alerts of a process from its configuration (config.alerts, publicUrl) and what it sends through. With
 * REDIS_URL its wake-ups are BullMQ delayed jobs on the queue `fleet-alerts` under the deployment's BullMQ
 * prefix (the same in every process: REDIS_PREFIX), so one process's escalation wakes whichever takes it.
 */
export function alertsFeatureOf(
  db: Db,
  config: {
    publicUrl: string;
    redisUrl?: string | undefined;
    redisPrefix?: string | undefined;
    alerts: { settings: AlertSettings; vapid: AlertsOptions['vapid']; smsOutboxDir: string };
  },
  parts: Pick<AlertsOptions, 'mailQueue' | 'emitToUser' | 'log'> &
    Partial<Pick<AlertsOptions, 'now' | 'sms' | 'channels' | 'pushAgent' | 'wakeups'>>,
) {
  const wakeups = config.redisUrl
    ? bullmqWakeups({
        redisUrl: config.redisUrl,
        prefix: bullPrefixOf(config.redisPrefix),
        queueName: 'fleet-alerts',
        log: parts.log,
      })
    : undefined;
  return alertsFeature({
    ...(wakeups ? { wakeups } : {}),
    db,
    settings: config.alerts.settings,
    now: () => new Date(),
    publicUrl: config.publicUrl,
    vapid: config.alerts.vapid,
    smsOutboxDir: config.alerts.smsOutboxDir,
    ...parts,
  });
}
