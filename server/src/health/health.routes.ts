import { Router } from 'express';

/**
 * /healthz: the process is up. /readyz: what requests need answers (a load balancer routes on it): the
 * database, and Redis when the deployment uses it (queues, push adapter, shared counters). Each check
 * gets 2 s; a check that does not answer counts as down.
 */
export function healthRoutes(checks: { database: () => Promise<boolean>; redis?: () => Promise<boolean> }) {
  const r = Router();
  const within = (check: () => Promise<boolean>) =>
    Promise.race([check().catch(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000))]);
  r.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  r.get('/readyz', async (_req, res) => {
    const [db, redis] = await Promise.all([
      within(checks.database),
      checks.redis ? within(checks.redis) : Promise.resolve(undefined),
    ]);
    const ready = db && redis !== false;
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'unavailable',
      database: db ? 'up' : 'down',
      ...(redis === undefined ? {} : { redis: redis ? 'up' : 'down' }),
    });
  });
  return r;
}
