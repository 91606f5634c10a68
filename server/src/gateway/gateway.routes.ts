import express, { Router } from 'express';
import { checkinSchema, provisionDevicesSchema } from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import type { Db } from '../db/client.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
import { gatewayRepository } from './gateway.repository.ts';
import { gatewayService, serialOfCredentials } from './gateway.service.ts';

type GatewayConfig = Pick<AppContext['config'], 'secretKey'> & Partial<Pick<AppContext['config'], 'checkinSynchronousCommit'>>;

/**
 * The gateway service on a database (the routes, the seed's and tests' check-ins). Without
 * checkinSynchronousCommit (the seed, tests) a check-in commits as every other write does.
 */
export const gatewayServiceOf = (db: Db, config: GatewayConfig, now?: () => Date) =>
  gatewayService({
    repo: gatewayRepository(db, config.checkinSynchronousCommit ? { synchronousCommit: config.checkinSynchronousCommit } : {}),
    secretKey: config.secretKey,
    ...(now ? { now } : {}),
  });

/**
 * The device-facing API under /device/v1, with its own body limit (a check-in may carry 5,000 events).
 * It needs the database and the secret key only: the portal mounts it (app.ts), and so does the
 * gateway role's own process (processes/gateway.ts).
 */
export function deviceGatewayRouter(ctx: {
  db: Db;
  config: GatewayConfig;
  now?: () => Date;
  checkedIn?: (serial: string) => void;
}) {
  const service = gatewayServiceOf(ctx.db, ctx.config, ctx.now);
  const router = Router();
  router.use(express.json({ limit: '2mb' }));
  router.post('/checkin', async (req, res) => {
    res.json(await service.checkin(req.get('authorization'), req.body));
    // After the answer: the alerts' evaluation of its warning codes never holds a device's check-in (issue 43).
    ctx.checkedIn?.(serialOfCredentials(req.get('authorization')));
  });
  router.get('/config', async (req, res) => {
    const device = await service.authenticate(req.get('authorization'));
    res.json(await service.configFor(device.id));
  });
  return { router, service };
}

/** Distributor calls that manage device credentials and provisioning (under /api/v1). */
export function gatewayAdminRoutes(ctx: AppContext): Routes {
  const service = gatewayServiceOf(ctx.db, ctx.config, ctx.now);
  const router = Router();
  router.post('/deviceSecret/:serial', async (req, res) => {
    res.json(await service.rotateSecretFor(viewerOf(req), req.params.serial));
  });
  router.post('/provisionDevices', async (req, res) => {
    res.status(201).json(await service.provision(viewerOf(req), req.body));
  });
  const tag = 'Device gateway';
  const docs: RouteDoc[] = [
    {
      method: 'post',
      path: '/device/v1/checkin',
      tag,
      auth: 'device',
      summary: 'A device checks in with its telemetry and gets its configuration and pending changes',
      body: checkinSchema,
      description:
        'Idempotent: dispenses and SMS carry the device sequence number; a retried upload never counts twice. Acknowledge applied changes in `applied` of the next check-in. Timestamps more than 5 minutes ahead of the server clock are refused.',
      responses: {
        200: { description: 'Stored; the configuration, pending changes and nextCheckinBy' },
        401: { description: 'Wrong serial or secret: nothing stored' },
      },
    },
    {
      method: 'get',
      path: '/device/v1/config',
      tag,
      auth: 'device',
      summary: 'The configuration and pending changes, without uploading',
    },
    {
      method: 'post',
      path: '/api/v1/deviceSecret/:serial',
      tag,
      summary: 'Rotate the secret of a device (distributors; shown once)',
      responses: { 200: { description: '{ serial, secret }' }, 404: { description: 'Unknown serial' } },
    },
    {
      method: 'post',
      path: '/api/v1/provisionDevices',
      tag,
      summary: 'Register new serials, unplaced (distributors)',
      body: provisionDevicesSchema,
      responses: { 201: { description: '{ provisioned }' } },
    },
  ];
  return { router, docs };
}
