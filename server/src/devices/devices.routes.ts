import { z } from 'zod';
import {
  deviceConfigSchema,
  deviceFormSchema,
  deviceListQuerySchema,
  devicePageQuerySchema,
  devicesApi,
  pauseSchema,
  pumpSettingSchema,
  registrationSetupSchema,
  rentalSchema,
  resetMlSchema,
  serialSchema,
} from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import type { RequestHandler } from 'express';
import { parse } from '../lib/errors.ts';
import { wantsFresh } from '../lib/aggregate-cache.ts';
import { sendStreamedJson } from '../lib/streamed-json.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { devicesRepository } from './devices.repository.ts';
import { devicesService } from './devices.service.ts';

/** The device calls of spec section 7 (paths exact, 'avaliableDevice' included: existing clients call it). */
export function devicesRoutes(ctx: AppContext): Routes {
  const service = devicesService({
    repo: devicesRepository(ctx.db),
    now: ctx.now,
    ...(ctx.aggregates ? { cache: ctx.aggregates } : {}),
  });
  const { router, docs, on } = endpointRoutes();
  const serial = (p: unknown) => parse(serialSchema, p);
  // Permission before validation (the declared roles, then the scope): a caller who may not make the change
  // hears 403 (wrong role) or 404 (a device outside its scope) whatever the body holds.
  const inScope: RequestHandler = async (req, _res, next) => {
    await service.assertPlacedInScope(viewerOf(req), serial(req.params.serial));
    next();
  };
  /**
   * After a write is answered 2xx (its transaction committed), the pollers watching the device poll it now
   * (workers/src/realtime/nudge.ts), so every screen hears the change within a second instead of at the
   * next period. The serial is the path's, else what the handler put in res.locals.changed.
   */
  const nudge: RequestHandler = (req, res, next) => {
    // Read now: the router may have moved on from this route's params by the time the answer is sent.
    const pathSerial = req.params.serial;
    res.on('finish', () => {
      if (res.statusCode >= 300) return;
      const changed: unknown = res.locals.changed ?? (pathSerial ? [pathSerial] : []);
      if (Array.isArray(changed)) ctx.pollNudge?.devicesChanged(changed.filter((s): s is string => typeof s === 'string'));
    });
    next();
  };

  on(devicesApi.list, async (req, res) => {
    // ?serials=A,B: only those devices (the pollers' cards poll); without it the whole list, as the spec has it.
    if (req.query.serials !== undefined)
      return void res
        .type('json')
        .send(await service.listOf(viewerOf(req), parse(deviceListQuerySchema, req.query).serials ?? []));
    const fresh = wantsFresh(req.get('Cache-Control'));
    // gzip first: the list is kept as gzip pieces of which a read compresses again only what changed (kept-list.ts).
    await sendStreamedJson(req, res, (encoding) => service.listStream(viewerOf(req), encoding, fresh), ['gzip', 'br']);
  });
  on(
    devicesApi.page,
    async (req, res) => void res.type('json').send(await service.page(viewerOf(req), parse(devicePageQuerySchema, req.query))),
  );
  on(devicesApi.statusCounts, async (req, res) => void res.json(await service.statusCounts(viewerOf(req))));
  on(devicesApi.pins, async (req, res) => {
    const fresh = wantsFresh(req.get('Cache-Control'));
    // gzip first, like the list: the feed is kept as gzip pieces (devices.service.ts pinsStream).
    await sendStreamedJson(req, res, (encoding) => service.pinsStream(viewerOf(req), encoding, fresh), ['gzip', 'br']);
  });
  on(devicesApi.get, async (req, res) => void res.json(await service.get(viewerOf(req), serial(req.params.serial))));
  on(devicesApi.registered, async (req, res) => void res.json(await service.registered(viewerOf(req))));
  on(devicesApi.available, async (req, res) => void res.json(await service.available(viewerOf(req))));
  on(devicesApi.add, nudge, async (req, res) => {
    const placed = await service.add(viewerOf(req), parse(deviceFormSchema, req.body));
    res.locals.changed = [placed.serial];
    res.status(201).json(placed);
  });
  on(
    devicesApi.edit,
    inScope,
    nudge,
    async (req, res) =>
      void res.json(await service.edit(viewerOf(req), serial(req.params.serial), parse(deviceFormSchema, req.body))),
  );
  on(devicesApi.remove, nudge, async (req, res) => void res.json(await service.remove(viewerOf(req), serial(req.params.serial))));
  on(
    devicesApi.setConfig,
    inScope,
    nudge,
    async (req, res) =>
      void res.json(await service.setConfig(viewerOf(req), serial(req.params.serial), parse(deviceConfigSchema, req.body))),
  );
  on(
    devicesApi.setPause,
    inScope,
    nudge,
    async (req, res) =>
      void res.json(await service.setPause(viewerOf(req), serial(req.params.serial), parse(pauseSchema, req.body).isPause)),
  );
  on(
    devicesApi.pumpSetting,
    async (req, res) => void res.json(await service.pumpSetting(viewerOf(req), serial(req.params.serial))),
  );
  on(
    devicesApi.editPumpSetting,
    inScope,
    nudge,
    async (req, res) =>
      void res.json(await service.editPumpSetting(viewerOf(req), serial(req.params.serial), parse(pumpSettingSchema, req.body))),
  );
  on(
    devicesApi.registrationSetup,
    inScope,
    nudge,
    async (req, res) =>
      void res.json(
        await service.registrationSetup(viewerOf(req), serial(req.params.serial), parse(registrationSetupSchema, req.body)),
      ),
  );
  on(
    devicesApi.resetMl,
    inScope,
    nudge,
    async (req, res) =>
      void res.json(await service.resetMl(viewerOf(req), serial(req.params.serial), parse(resetMlSchema, req.body).pumpNumber)),
  );
  on(devicesApi.cancelPendingChange, nudge, async (req, res) => {
    const cancelled = await service.cancelPending(
      viewerOf(req),
      parse(z.coerce.number({ error: 'Unknown change.' }).int().positive({ error: 'Unknown change.' }), req.params.id),
    );
    res.locals.changed = [cancelled.device.serial];
    res.json(cancelled);
  });
  on(devicesApi.rental, async (req, res) => void res.json(await service.rental(viewerOf(req), serial(req.params.serial))));
  on(devicesApi.setRental, nudge, async (req, res) => {
    const input = parse(rentalSchema, req.body);
    const answer = await service.setRental(viewerOf(req), input);
    res.locals.changed = input.serials;
    res.json(answer);
  });

  return { router, docs };
}
