import { Router } from 'express';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { deviceScope } from '../access/scope.ts';
import { viewerOf } from '../auth/auth.middleware.ts';
import { ApiError, parse } from '../lib/errors.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
import { devicesRepository } from './devices.repository.ts';

const serialParam = z.string().trim().min(1).max(64);

/** GET /api/v1/device and /api/v1/device/{serial}, scoped to the caller (404 outside the scope). */
export function devicesRoutes(ctx: AppContext): Routes {
  const repo = devicesRepository(ctx.db);
  const router = Router();
  router.get('/device', async (req, res) => {
    res.json(await repo.list(deviceScope(viewerOf(req))));
  });
  router.get('/device/:serial', async (req, res) => {
    const device = await repo.bySerial(parse(serialParam, req.params.serial), deviceScope(viewerOf(req)));
    if (!device) throw ApiError.notFound('No device with this serial.');
    res.json(device);
  });
  const tag = 'Devices';
  const docs: RouteDoc[] = [
    { method: 'get', path: '/api/v1/device', tag, summary: 'Placed devices in the caller scope, with every section 3 field' },
    { method: 'get', path: '/api/v1/device/:serial', tag, summary: 'One device (polled every 20 s by cards, 10 s by the panel)', responses: { 200: { description: 'The device' }, 404: { description: 'Unknown or outside the caller scope' } } },
  ];
  return { router, docs };
}
