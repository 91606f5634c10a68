import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import request from 'supertest';
import { createApp } from '../../server/src/app.ts';
import { createMailer } from '../../server/src/mail/mailer.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/**
 * The built client the portal serves; CLIENT_DIST points elsewhere (an absolute path), so that several
 * people building and testing on one machine do not pull each other's dist away mid-run
 * (`npm run build -w client -- --outDir /tmp/my-dist --emptyOutDir`).
 */
export const CLIENT_DIST = process.env.CLIENT_DIST ?? path.join(REPO_ROOT, 'client', 'dist');

export type Portal = {
  /** http://127.0.0.1:<port>, serving the API and the built client. */
  baseURL: string;
  harness: Harness;
  /** The HTTP server, for tests that attach a stand-in push server (Socket.IO) to it. */
  server: http.Server;
  /** The app itself: its session hub and alerts loop, for the tests that start them (alerts). */
  app: ReturnType<typeof createApp>;
  close(): Promise<void>;
};

/**
 * The whole portal over real HTTP for a browser: the test harness (PGlite seeded with the demo fleet,
 * a local SMTP server), plus an app that also serves client/dist, listening on a free port.
 */
export async function startPortal(): Promise<Portal> {
  if (!fs.existsSync(path.join(CLIENT_DIST, 'index.html'))) {
    throw new Error(`${CLIENT_DIST} has no index.html: run \`npm run build -w client\` first`);
  }
  const harness = await startHarness('pglite');
  const { config, database } = harness;
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    outboxDir: path.join(harness.dataDir, 'outbox'),
  });
  const app = createApp({ config, database, mailer, clientDir: CLIENT_DIST, log: () => undefined });

  const server = http.createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}`,
    harness,
    server,
    app,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await harness.close();
    },
  };
}

/** Signs a demo account in over the portal's API and answers its token (the demo password unless given). */
export async function apiToken(portal: Portal, email: string, password = 'Demo1234'): Promise<string> {
  const res = await request(portal.harness.app).post('/auth/token/login/').send({ email, password });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.auth_token as string;
}

/** apiToken for several accounts, by email. */
export async function apiTokens(portal: Portal, emails: readonly string[]): Promise<Record<string, string>> {
  const tokens: Record<string, string> = {};
  for (const email of emails) tokens[email] = await apiToken(portal, email);
  return tokens;
}

/**
 * An AuthService over the portal's database that authenticates the same tokens as its app: for tests
 * that attach the real push server (startRealtime) to the portal's HTTP server.
 */
export async function portalAuth(portal: Portal) {
  const { authService } = await import('../../server/src/auth/auth.service.ts');
  const { authRepository } = await import('../../server/src/auth/auth.repository.ts');
  const { authLimits } = await import('../../server/src/auth/limits.ts');
  const c = portal.harness.config;
  return authService({
    repo: authRepository(portal.harness.database.db),
    mailer: { send: async () => undefined },
    limits: authLimits({ login: { perEmail: 100, perAddress: 100, windowSeconds: 60 } }),
    secretKey: c.secretKey,
    serviceToken: c.serviceToken,
    publicUrl: c.publicUrl,
  });
}

/**
 * The real push server (Socket.IO, the pollers) on the portal's HTTP server, with short periods so a test
 * sees a push within seconds.
 */
export async function startPortalPushes(
  portal: Portal,
  periods: Record<string, number>,
  tickMs = 100,
  extra: { sessions?: Portal['app']['sessions'] } = {},
) {
  const { startRealtime } = await import('../../server/src/realtime/realtime.ts');
  const c = portal.harness.config;
  return startRealtime(portal.server, {
    db: portal.harness.database.db,
    auth: (await portalAuth(portal)) as never,
    serviceToken: c.serviceToken,
    deviceApiUrl: portal.baseURL,
    periods,
    tickMs,
    // The map's pin deltas (issue 46), from the portal's change path, as processes/portal.ts wires them.
    pinChanges: portal.app.pinChanges.source,
    ...extra,
  });
}
