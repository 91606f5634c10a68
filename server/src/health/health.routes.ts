import { Router } from 'express';

/** /healthz: the process is up. /readyz: the database answers (a load balancer routes on it). */
export function healthRoutes(ping: () => Promise<boolean>) {
  const r = Router();
  r.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  r.get('/readyz', async (_req, res) => {
    const db = await Promise.race([ping(), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000))]);
    res.status(db ? 200 : 503).json({ status: db ? 'ready' : 'unavailable', database: db ? 'up' : 'down' });
  });
  return r;
}
