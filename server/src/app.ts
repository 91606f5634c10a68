import fs from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';
import { authRoutes } from './auth/auth.routes.ts';
import { requireAuth } from './auth/auth.middleware.ts';
import { authRepository } from './auth/auth.repository.ts';
import { authService } from './auth/auth.service.ts';
import type { Config } from './config/config.ts';
import type { Database } from './db/client.ts';
import { devicesRoutes } from './devices/devices.routes.ts';
import { healthRoutes } from './health/health.routes.ts';
import { errorHandler, notFoundHandler } from './lib/errors.ts';
import { memoryRateLimiter } from './lib/rate-limiter.ts';
import type { Mailer } from './mail/mailer.ts';

export type AppDeps = {
  config: Config;
  database: Database;
  mailer: Mailer;
  /** Directory of the built client (served with an SPA fallback) when it exists. */
  clientDir?: string;
  log?: (msg: string, err?: unknown) => void;
};

/** Builds the HTTP app from its dependencies without listening (supertest drives it directly). */
export function createApp(deps: AppDeps) {
  const { config, database } = deps;
  const log = deps.log ?? ((msg: string, err?: unknown) => console.error(msg, err ?? ''));
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);

  const auth = authService({
    repo: authRepository(database.db),
    mailer: deps.mailer,
    emailLimiter: memoryRateLimiter(config.loginLimit.perEmail, config.loginLimit.windowSeconds),
    addressLimiter: memoryRateLimiter(config.loginLimit.perAddress, config.loginLimit.windowSeconds),
    secretKey: config.secretKey,
    publicUrl: config.publicUrl,
    log,
  });

  app.use(healthRoutes(database.ping));
  app.use(express.json({ limit: '100kb' }));
  app.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  const { publicRoutes, privateRoutes } = authRoutes(auth);
  app.use(publicRoutes);

  const api = Router();
  api.use(requireAuth(auth));
  api.use(privateRoutes);
  api.use(devicesRoutes(database.db));
  app.use('/api/v1', api);
  app.use(['/api', '/auth'], notFoundHandler);

  const uploads = path.join(config.dataDir, 'uploads');
  app.use(
    '/uploads',
    express.static(uploads, {
      setHeaders: (res) => {
        // Uploaded files are only ever images: never let one run as a page.
        res.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'");
        res.set('X-Content-Type-Options', 'nosniff');
      },
    }),
  );

  if (deps.clientDir && fs.existsSync(path.join(deps.clientDir, 'index.html'))) {
    const index = path.join(deps.clientDir, 'index.html');
    app.use(express.static(deps.clientDir, { index: false, maxAge: '1h' }));
    // Every client route (/, /maintenance, /status, ...) is the single-page app.
    app.get(/^\/(?!api\/|auth\/|uploads\/).*/, (_req, res) => {
      res.set('Cache-Control', 'no-cache').sendFile(index);
    });
  }

  app.use(notFoundHandler);
  app.use(errorHandler(log));
  return app;
}
