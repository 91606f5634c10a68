import express, { Router } from 'express';
import { inArray } from 'drizzle-orm';
import { checkinSchema, provisionDevicesSchema, serialSchema } from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/auth.middleware.ts';
import { devices } from '../db/schema.ts';
import { ApiError, parse } from '../lib/errors.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
import { gatewayService } from './gateway.service.ts';

/** The device-facing API under /device/v1, with its own body limit (a check-in may carry 5,000 events). */
export function deviceGatewayRouter(ctx: AppContext) {
  const service = gatewayService(ctx.db, ctx.config.secretKey, ctx.now);
  const router = Router();
  router.use(express.json({ limit: '2mb' }));
  router.post('/checkin', async (req, res) => {
    res.json(await service.checkin(req.get('authorization'), req.body));
  });
  router.get('/config', async (req, res) => {
    const device = await service.authenticate(req.get('authorization'));
    res.json(await service.configFor(device.id));
  });
  return { router, service };
}

/** Distributor calls that manage device credentials and provisioning (under /api/v1). */
export function gatewayAdminRoutes(ctx: AppContext): Routes {
  const service = gatewayService(ctx.db, ctx.config.secretKey, ctx.now);
  const router = Router();
  const requireDistributor = (req: express.Request) => {
    if (viewerOf(req).access !== 'distributor') throw ApiError.forbidden();
  };
  router.post('/deviceSecret/:serial', async (req, res) => {
    requireDistributor(req);
    res.json(await service.rotateSecret(parse(serialSchema, req.params.serial)));
  });
  router.post('/provisionDevices', async (req, res) => {
    requireDistributor(req);
    const input = parse(provisionDevicesSchema, req.body);
    const serials = [...new Set(input.serials)];
    const taken = await ctx.db.select({ serial: devices.serial }).from(devices).where(inArray(devices.serial, serials));
    if (taken.length) throw ApiError.field('serials', `Already registered: ${taken.map((t) => t.serial).slice(0, 20).join(', ')}`);
    await ctx.db.insert(devices).values(serials.map((serial) => ({ serial, leftPumpType: input.leftPumpType, rightPumpType: input.rightPumpType, coreVer: input.coreVer })));
    res.status(201).json({ provisioned: serials.length });
  });
  const tag = 'Device gateway';
  const docs: RouteDoc[] = [
    { method: 'post', path: '/device/v1/checkin', tag, auth: 'device', summary: 'A device checks in with its telemetry and gets its configuration and pending changes', body: checkinSchema, description: 'Idempotent: dispenses and SMS carry the device sequence number; a retried upload never counts twice. Acknowledge applied changes in `applied` of the next check-in. Timestamps more than 5 minutes ahead of the server clock are refused.', responses: { 200: { description: 'Stored; the configuration, pending changes and nextCheckinBy' }, 401: { description: 'Wrong serial or secret: nothing stored' } } },
    { method: 'get', path: '/device/v1/config', tag, auth: 'device', summary: 'The configuration and pending changes, without uploading' },
    { method: 'post', path: '/api/v1/deviceSecret/:serial', tag, summary: 'Rotate the secret of a device (distributors; shown once)', responses: { 200: { description: '{ serial, secret }' }, 404: { description: 'Unknown serial' } } },
    { method: 'post', path: '/api/v1/provisionDevices', tag, summary: 'Register new serials, unplaced (distributors)', body: provisionDevicesSchema, responses: { 201: { description: '{ provisioned }' } } },
  ];
  return { router, docs };
}
