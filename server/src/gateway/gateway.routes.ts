import express from 'express';
import { gatewayApi } from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import type { Db } from '../db/client.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
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
  const { router, on } = endpointRoutes('/device/v1');
  router.use(express.json({ limit: '2mb' }));
  on(gatewayApi.checkin, async (req, res) => {
    res.json(await service.checkin(req.get('authorization'), req.body));
    // After the answer: the alerts' evaluation of its warning codes never holds a device's check-in (issue 43).
    ctx.checkedIn?.(serialOfCredentials(req.get('authorization')));
  });
  on(gatewayApi.config, async (req, res) => {
    const device = await service.authenticate(req.get('authorization'));
    res.json(await service.configFor(device.id));
  });
  return { router, service };
}

/** Distributor calls that manage device credentials and provisioning (under /api/v1). */
export function gatewayAdminRoutes(ctx: AppContext): Routes {
  const service = gatewayServiceOf(ctx.db, ctx.config, ctx.now);
  const { router, docs, on } = endpointRoutes();
  on(gatewayApi.deviceSecret, async (req, res) => {
    res.json(await service.rotateSecretFor(viewerOf(req), req.params.serial));
  });
  on(gatewayApi.provisionDevices, async (req, res) => {
    res.status(201).json(await service.provision(viewerOf(req), req.body));
  });
  // The device gateway's own calls (deviceGatewayRouter, mounted at /device/v1) are documented beside these.
  return { router, docs: [gatewayApi.checkin, gatewayApi.config, ...docs] };
}
