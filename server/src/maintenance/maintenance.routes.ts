import express, { Router } from 'express';
import { z } from 'zod';
import { maintenanceApi } from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { serviceDayServiceOf } from '../service-day/index.ts';
import { maintenanceRepository } from './maintenance.repository.ts';
import { maintenanceService } from './maintenance.service.ts';
import { devicesRepository, devicesService } from '../devices/index.ts';
import { parse } from '../lib/errors.ts';

/** The maintenance service of an app: the routes and the auth service (credential check) share one. */
export const maintenanceServiceOf = (ctx: Pick<AppContext, 'db' | 'config' | 'now' | 'aggregates'>) =>
  maintenanceService({
    repo: maintenanceRepository(ctx.db),
    secretKey: ctx.config.secretKey,
    configuredToken: ctx.config.maintenanceToken,
    publicUrl: ctx.config.publicUrl,
    now: ctx.now,
    devices: devicesService({
      repo: devicesRepository(ctx.db),
      now: ctx.now,
      ...(ctx.aggregates ? { cache: ctx.aggregates } : {}),
    }),
  });

/** The calls of the /maintenance and /maintenance-result pages, declared in shared/src/api/maintenance.ts. */
export function maintenanceRoutes(
  ctx: AppContext,
  service = maintenanceServiceOf(ctx),
  serviceDay = serviceDayServiceOf(ctx),
): Routes {
  const { router, docs, on } = endpointRoutes();
  on(maintenanceApi.devices, async (req, res) => {
    res.json(await service.devices(viewerOf(req), req.query));
  });
  on(maintenanceApi.record, async (req, res) => {
    const { record, duplicate } = await service.record(viewerOf(req), req.body);
    // The device's pollers push its new volumes, batch and warnings now (forecasts, dashboards, Service day).
    if (!duplicate && record.refills.length) ctx.pollNudge?.devicesChanged([record.serial]);
    res.status(duplicate ? 200 : 201).json(record);
    // A service plan visiting this device may move on (issue 48); its owner's Service day view hears it live.
    if (!duplicate)
      serviceDay.deviceServiced(record.serial).catch((err: unknown) => ctx.log('service plan progress failed', err));
  });
  on(maintenanceApi.photo, async (req, res) => {
    const photo = await service.photo(viewerOf(req), parse(z.coerce.number().int().positive(), req.params.id));
    res.type('image/jpeg').set('Cache-Control', 'private, max-age=3600').send(photo);
  });
  on(maintenanceApi.records, async (req, res) => {
    res.json(await service.records(viewerOf(req), req.query));
  });
  on(maintenanceApi.credential, async (req, res) => {
    res.json(await service.credentialStatus(viewerOf(req)));
  });
  on(maintenanceApi.rotateCredential, async (req, res) => {
    res.json(await service.rotateCredential(viewerOf(req)));
  });
  on(maintenanceApi.revokeCredential, async (req, res) => {
    res.json(await service.revokeCredential(viewerOf(req)));
  });
  // A record may carry a photo (a JPEG of at most 1 MB, base64 in the JSON): this one call parses bodies up
  // to 1.5 MB, after the token is checked (a mount: app.ts), before the portal's 100 kB limit.
  const largeBody = Router().use(express.json({ limit: '1500kb' }));
  return { router, docs, mounts: [{ path: maintenanceApi.record.path, router: largeBody }] };
}
