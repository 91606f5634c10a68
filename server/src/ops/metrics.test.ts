import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Mailer } from '../mail/index.ts';
import { processMetrics, routeOf } from './metrics.ts';

/** The value of one series in Prometheus text: `name{labels...} value`, all the given labels present. */
function series(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text
    .split('\n')
    .find((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && want.every((w) => l.includes(w)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/** An app shaped like app.ts: the metrics middleware first, routers under their mount paths. */
function appWith(metrics: ReturnType<typeof processMetrics>) {
  const app = express();
  app.use(metrics.httpMiddleware);
  const api = express.Router();
  // Failures are thrown, as the services do, and answered by the app's error handler outside the router.
  const fail = (status: number) => Object.assign(new Error(`status ${status}`), { status });
  api.get('/device/:serial', async (req, res) => {
    if (req.params.serial === 'SP404') throw fail(404);
    res.json({ serial: req.params.serial });
  });
  app.use('/api/v1', api);
  const gateway = express.Router();
  gateway.post('/checkin', async (req, res) => {
    const outcome = req.query.outcome;
    if (outcome === 'refused') throw fail(401);
    res.status(outcome === 'failed' ? 500 : 204).end();
  });
  app.use('/device/v1', gateway);
  app.use(
    ((err, _req, res, _next) =>
      void res.status((err as { status: number }).status).json({ detail: 'x' })) as express.ErrorRequestHandler,
  );
  return app;
}

describe('processMetrics (GET /metrics)', () => {
  it('times requests by route pattern (under its mount path, errors too), method and status, never by the raw path', async () => {
    const metrics = processMetrics({ role: 'server' });
    const app = appWith(metrics);
    for (const serial of ['SP240001', 'SP240002', 'SP240003'])
      expect((await request(app).get(`/api/v1/device/${serial}`)).status).toBe(200);
    expect((await request(app).get('/api/v1/device/SP404')).status).toBe(404);
    expect((await request(app).get('/nothing/here')).status).toBe(404);
    const text = await metrics.text();

    const labels = { method: 'GET', route: '/api/v1/device/:serial' };
    expect(series(text, 'http_request_duration_seconds_count', { ...labels, status: '200' })).toBe(3);
    expect(series(text, 'http_request_duration_seconds_count', { ...labels, status: '404' })).toBe(1);
    expect(series(text, 'http_request_duration_seconds_bucket', { ...labels, status: '200', le: '+Inf' })).toBe(3);
    expect(series(text, 'http_request_duration_seconds_sum', { ...labels, status: '200' })).toBeGreaterThan(0);
    expect(series(text, 'http_request_duration_seconds_count', { route: 'unmatched' })).toBe(1);
    expect(text).not.toMatch(/SP240001|\/nothing\/here/);
    // Every series carries the process's role.
    expect(text).toMatch(/http_request_duration_seconds_count\{[^}]*role="server"/);
    expect(text).toMatch(/# TYPE http_request_duration_seconds histogram/);
  });

  it('counts device check-ins by outcome', async () => {
    const metrics = processMetrics({ role: 'server' });
    const app = appWith(metrics);
    await request(app).post('/device/v1/checkin');
    await request(app).post('/device/v1/checkin');
    await request(app).post('/device/v1/checkin?outcome=refused');
    await request(app).post('/device/v1/checkin?outcome=failed');
    const text = await metrics.text();
    expect(series(text, 'device_checkins_total', { outcome: 'accepted' })).toBe(2);
    expect(series(text, 'device_checkins_total', { outcome: 'refused' })).toBe(1);
    expect(series(text, 'device_checkins_total', { outcome: 'failed' })).toBe(1);
    expect(
      series(text, 'http_request_duration_seconds_count', { method: 'POST', route: '/device/v1/checkin', status: '204' }),
    ).toBe(2);
  });

  it('reports open sockets, upstream polls by topic and the queue depth by state as they are now', async () => {
    const metrics = processMetrics({ role: 'worker' });
    let sockets = 3;
    metrics.watchSockets(() => sockets);
    let depth: Record<string, number> = { waiting: 5, active: 2, delayed: 1, failed: 0 };
    metrics.watchQueue(async () => depth);
    metrics.countPoll('device');
    metrics.countPoll('device');
    metrics.countPoll('simLog');
    let text = await metrics.text();
    expect(series(text, 'socketio_open_sockets')).toBe(3);
    expect(series(text, 'upstream_polls_total', { topic: 'device' })).toBe(2);
    expect(series(text, 'upstream_polls_total', { topic: 'simLog' })).toBe(1);
    // Topics never polled are there at 0, so a rate() has a series from the start.
    expect(series(text, 'upstream_polls_total', { topic: 'overview' })).toBe(0);
    for (const [state, n] of Object.entries(depth)) expect(series(text, 'job_queue_depth', { state })).toBe(n);
    expect(text).toMatch(/socketio_open_sockets\{role="worker"\} 3/);

    // Gauges are read at scrape time.
    sockets = 1;
    depth = { waiting: 0, active: 1, delayed: 0, failed: 4 };
    text = await metrics.text();
    expect(series(text, 'socketio_open_sockets')).toBe(1);
    expect(series(text, 'job_queue_depth', { state: 'failed' })).toBe(4);
    expect(series(text, 'job_queue_depth', { state: 'waiting' })).toBe(0);

    // Redis away: the scrape still answers, with the last depth.
    metrics.watchQueue(async () => {
      throw new Error('Connection is closed.');
    });
    expect(series(await metrics.text(), 'job_queue_depth', { state: 'failed' })).toBe(4);
  });

  it('counts mails sent and failed, and passes a failure on to the job', async () => {
    const metrics = processMetrics({ role: 'worker' });
    let fail = false;
    const delivered: string[] = [];
    const inner: Mailer = {
      async send(message) {
        if (fail) throw new Error('SMTP 451');
        delivered.push(String(message.to));
      },
    };
    const mailer = metrics.countedMailer(inner);
    let text = await metrics.text();
    expect([series(text, 'mails_total', { outcome: 'sent' }), series(text, 'mails_total', { outcome: 'failed' })]).toEqual([
      0, 0,
    ]);
    const message = { to: 'a@example.test', subject: 'Daily', text: 'x' } as Parameters<Mailer['send']>[0];
    await mailer.send(message);
    await mailer.send({ ...message, to: 'b@example.test' });
    fail = true;
    await expect(mailer.send(message)).rejects.toThrow('SMTP 451');
    text = await metrics.text();
    expect(delivered).toEqual(['a@example.test', 'b@example.test']);
    expect(series(text, 'mails_total', { outcome: 'sent' })).toBe(2);
    expect(series(text, 'mails_total', { outcome: 'failed' })).toBe(1);
  });

  it('labels what matched no route pattern by kind, not by path', () => {
    expect(routeOf('/api/v1', '/device/:serial', '/device/SP1')).toBe('/api/v1/device/:serial');
    expect(routeOf('', '/', '/')).toBe('/');
    expect(routeOf('', /.*/, '/map/devices')).toBe('(spa)');
    expect(routeOf('', undefined, '/uploads/brands/3.svg')).toBe('/uploads/*');
    expect(routeOf('', undefined, '/assets/index-abc.js')).toBe('(static)');
    expect(routeOf('', undefined, '/wp-login.php')).toBe('unmatched');
  });
});
