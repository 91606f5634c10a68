import { Router } from 'express';
import { z } from 'zod';
import type { Db } from '../db/client.ts';
import { deviceScope } from '../access/scope.ts';
import { viewerOf } from '../auth/auth.middleware.ts';
import { ApiError, parse } from '../lib/errors.ts';
import { devicesRepository } from './devices.repository.ts';

const serialParam = z.string().trim().min(1).max(64);

/** GET /api/v1/device and /api/v1/device/{serial}, scoped to the caller (404 outside the scope). */
export function devicesRoutes(db: Db) {
  const repo = devicesRepository(db);
  const r = Router();
  r.get('/device', async (req, res) => {
    res.json(await repo.list(deviceScope(viewerOf(req))));
  });
  r.get('/device/:serial', async (req, res) => {
    const device = await repo.bySerial(parse(serialParam, req.params.serial), deviceScope(viewerOf(req)));
    if (!device) throw ApiError.notFound('No device with this serial.');
    res.json(device);
  });
  return r;
}
