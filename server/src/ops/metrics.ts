import type { RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { SubscriptionTopic } from '@fleet/shared';
import type { Mailer } from '../mail/index.ts';

/**
 * The process's Prometheus metrics (GET /metrics): HTTP latency by route, open sockets, upstream polls,
 * queue depth, device check-ins, mails sent and failed, plus Node's own (event loop lag, heap, GC).
 * One registry per process; a scraper adds the instance label, so replicas are summed by Prometheus.
 */
export function processMetrics(opts: { role: string }) {
  const registry = new Registry();
  registry.setDefaultLabels({ role: opts.role });
  collectDefaultMetrics({ register: registry });

  const httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method, route (the matched pattern, not the raw path) and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const polls = new Counter({
    name: 'upstream_polls_total',
    help: 'Upstream GETs the pollers made to the device API, by topic.',
    labelNames: ['topic'] as const,
    registers: [registry],
  });
  for (const topic of ['device', 'deviceCards', 'simLog', 'overview']) polls.inc({ topic }, 0);
  const checkins = new Counter({
    name: 'device_checkins_total',
    help: 'Device check-ins at POST /device/v1/checkin, by outcome (accepted: 2xx, refused: 4xx, failed: 5xx).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const mails = new Counter({
    name: 'mails_total',
    help: 'Mails handed to SMTP (or the outbox directory), by outcome: sent or failed.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  for (const outcome of ['sent', 'failed']) mails.inc({ outcome }, 0);

  let socketCount: () => number = () => 0;
  new Gauge({
    name: 'socketio_open_sockets',
    help: 'Socket.IO connections open on this process.',
    registers: [registry],
    collect() {
      this.set(socketCount());
    },
  });
  let queueDepth: () => Promise<Record<string, number>> = async () => ({});
  new Gauge({
    name: 'job_queue_depth',
    help: 'Jobs in the queue by state (waiting, active, delayed, failed), as this process sees the shared queue.',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      try {
        for (const [state, n] of Object.entries(await queueDepth())) this.set({ state }, n);
      } catch {
        /* Redis away: the gauge keeps its last value rather than failing the scrape */
      }
    },
  });

  /** Latency of every answered request, labelled by the route pattern so ids do not explode the series. */
  const httpMiddleware: RequestHandler = (req, res, next) => {
    const end = httpDuration.startTimer();
    // The label is taken when a route matches (the router sets req.route), under that router's mount path:
    // by 'finish' an error answered by the app's error handler has left the router, req.baseUrl is back to
    // '' and the label would lose its prefix (/device/:serial for /api/v1/device/:serial, /checkin for a
    // refused check-in, which then went uncounted).
    let matched: string | undefined;
    let current: unknown;
    Object.defineProperty(req, 'route', {
      configurable: true,
      enumerable: true,
      get: () => current,
      set(route: { path?: unknown } | undefined) {
        current = route;
        if (route && route.path !== undefined) matched = routeOf(req.baseUrl, route.path, req.path);
      },
    });
    res.on('finish', () => {
      const route = matched ?? routeOf(req.baseUrl, (current as { path?: unknown } | undefined)?.path, req.path);
      const status = res.statusCode;
      end({ method: req.method, route, status: String(status) });
      if (route === '/device/v1/checkin' && req.method === 'POST')
        checkins.inc({ outcome: status < 300 ? 'accepted' : status < 500 ? 'refused' : 'failed' });
    });
    next();
  };

  return {
    registry,
    httpMiddleware,
    countPoll: (topic: SubscriptionTopic) => polls.inc({ topic }),
    /** Counts every mail the mailer sends or fails to send. */
    countedMailer(mailer: Mailer): Mailer {
      return {
        ...mailer,
        async send(message) {
          try {
            await mailer.send(message);
            mails.inc({ outcome: 'sent' });
          } catch (err) {
            mails.inc({ outcome: 'failed' });
            throw err;
          }
        },
      };
    },
    watchSockets(count: () => number) {
      socketCount = count;
    },
    watchQueue(depth: () => Promise<Record<string, number>>) {
      queueDepth = depth;
    },
    text: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
export type ProcessMetrics = ReturnType<typeof processMetrics>;

/**
 * The route label: the matched pattern under its router's mount path; static files and the single-page
 * app fall back to one label each, and an unmatched path to 'unmatched' (never the raw path).
 */
export function routeOf(baseUrl: string, pattern: unknown, path: string): string {
  if (typeof pattern === 'string') return `${baseUrl}${pattern}` || '/';
  if (pattern instanceof RegExp) return `${baseUrl}(spa)`;
  if (path.startsWith('/uploads/')) return '/uploads/*';
  if (/\.(js|css|png|svg|ico|woff2?|json|map|webp|jpg)$/.test(path)) return '(static)';
  return 'unmatched';
}
