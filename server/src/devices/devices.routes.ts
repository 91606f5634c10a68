import { Router } from 'express';
import { z } from 'zod';
import {
  deviceConfigSchema,
  deviceFormSchema,
  devicePinsSchema,
  PIN_BITS,
  pauseSchema,
  pumpSettingSchema,
  registrationSetupSchema,
  rentalSchema,
  resetMlSchema,
  serialListQuery,
  serialSchema,
} from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { requireAccess, viewerOf } from '../auth/index.ts';
import type { RequestHandler } from 'express';
import { parse } from '../lib/errors.ts';
import { wantsFresh } from '../lib/aggregate-cache.ts';
import { sendCachedJson } from '../lib/cached-json.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
import { devicesRepository } from './devices.repository.ts';
import { devicesService } from './devices.service.ts';

/** `?serials=A,B,C` of GET /api/v1/device: at most 500 serials a call (a URL of a few kB). */
const serialsQuery = serialListQuery();

/** The device calls of spec section 7 (paths exact, 'avaliableDevice' included: existing clients call it). */
export function devicesRoutes(ctx: AppContext): Routes {
  const service = devicesService({
    repo: devicesRepository(ctx.db),
    now: ctx.now,
    ...(ctx.aggregates ? { cache: ctx.aggregates } : {}),
  });
  const router = Router();
  const serial = (p: unknown) => parse(serialSchema, p);
  // Permission before validation: a caller who may not make the change hears 403 (wrong role) or 404
  // (a device outside its scope) whatever the body holds, never a 400 about a body it may not send.
  const distributor = requireAccess('distributor');
  const operator = requireAccess('distributor', 'market-partner');
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

  router.get('/device', async (req, res) => {
    // ?serials=A,B: only those devices (the pollers' cards poll); without it the whole list, as the spec has it.
    if (req.query.serials !== undefined)
      return void res.type('json').send(await service.listOf(viewerOf(req), parse(serialsQuery, req.query.serials)));
    await sendCachedJson(req, res, await service.listJson(viewerOf(req), wantsFresh(req.get('Cache-Control'))));
  });
  router.get('/devicePins', async (req, res) =>
    sendCachedJson(req, res, await service.pinsJson(viewerOf(req), wantsFresh(req.get('Cache-Control')))),
  );
  router.get('/device/:serial', async (req, res) => void res.json(await service.get(viewerOf(req), serial(req.params.serial))));
  router.get('/deviceRegistered', async (req, res) => void res.json(await service.registered(viewerOf(req))));
  router.get('/avaliableDevice', async (req, res) => void res.json(await service.available(viewerOf(req))));
  router.post('/addDevice', distributor, nudge, async (req, res) => {
    const placed = await service.add(viewerOf(req), parse(deviceFormSchema, req.body));
    res.locals.changed = [placed.serial];
    res.status(201).json(placed);
  });
  router.put(
    '/editDevice/:serial',
    distributor,
    inScope,
    nudge,
    async (req, res) =>
      void res.json(await service.edit(viewerOf(req), serial(req.params.serial), parse(deviceFormSchema, req.body))),
  );
  router.post(
    '/deleteDevice/:serial',
    distributor,
    nudge,
    async (req, res) => void res.json(await service.remove(viewerOf(req), serial(req.params.serial))),
  );
  router.post(
    '/set_device_config/:serial',
    operator,
    inScope,
    nudge,
    async (req, res) =>
      void res.json(await service.setConfig(viewerOf(req), serial(req.params.serial), parse(deviceConfigSchema, req.body))),
  );
  router.post(
    '/setPauseDevice/:serial',
    operator,
    inScope,
    nudge,
    async (req, res) =>
      void res.json(await service.setPause(viewerOf(req), serial(req.params.serial), parse(pauseSchema, req.body).isPause)),
  );
  router.get(
    '/pumpSetting/:serial',
    async (req, res) => void res.json(await service.pumpSetting(viewerOf(req), serial(req.params.serial))),
  );
  router.put(
    '/editPumpSetting/:serial',
    operator,
    inScope,
    nudge,
    async (req, res) =>
      void res.json(await service.editPumpSetting(viewerOf(req), serial(req.params.serial), parse(pumpSettingSchema, req.body))),
  );
  router.post(
    '/deviceRegistrationSetup/:serial',
    operator,
    inScope,
    nudge,
    async (req, res) =>
      void res.json(
        await service.registrationSetup(viewerOf(req), serial(req.params.serial), parse(registrationSetupSchema, req.body)),
      ),
  );
  router.post(
    '/resetMl/:serial',
    operator,
    inScope,
    nudge,
    async (req, res) =>
      void res.json(await service.resetMl(viewerOf(req), serial(req.params.serial), parse(resetMlSchema, req.body).pumpNumber)),
  );
  router.post('/cancelPendingChange/:id', operator, nudge, async (req, res) => {
    const cancelled = await service.cancelPending(
      viewerOf(req),
      parse(z.coerce.number({ error: 'Unknown change.' }).int().positive({ error: 'Unknown change.' }), req.params.id),
    );
    res.locals.changed = [cancelled.device.serial];
    res.json(cancelled);
  });
  router.get(
    '/rentalV2/:serial',
    async (req, res) => void res.json(await service.rental(viewerOf(req), serial(req.params.serial))),
  );
  router.post('/rentalV2', operator, nudge, async (req, res) => {
    const input = parse(rentalSchema, req.body);
    const answer = await service.setRental(viewerOf(req), input);
    res.locals.changed = input.serials;
    res.json(answer);
  });

  const tag = 'Devices';
  const p = (path: string) => `/api/v1${path}`;
  const notFound = { 404: { description: 'Unknown serial, or outside the caller scope' } };
  const docs: RouteDoc[] = [
    {
      method: 'get',
      path: p('/device'),
      tag,
      summary: 'Placed devices in the caller scope, with every section 3 field',
      description:
        'Optional ?serials=A,B,C (at most 500): only those devices, same answer shape and order (what the push pollers read for watched cards; not in the spec).',
    },
    {
      method: 'get',
      path: p('/devicePins'),
      tag,
      summary: 'Compact pin feed for the map: the placed devices of /device (same scope), one tuple each',
      description:
        `Each pin is [serial, lat, lng, bits, label, number, group, brand]; bits: ${Object.entries(PIN_BITS)
          .map(([flag, bit]) => `${bit} ${flag}`)
          .join(', ')}. Ordered by device id. About 60 bytes a ` +
        'device before compression; live changes come over the push topics (device:changed). Not in the spec: an addition for the map.',
      responses: { 200: { description: 'Array of pin tuples', schema: devicePinsSchema } },
    },
    {
      method: 'get',
      path: p('/device/:serial'),
      tag,
      summary: 'One device (polled every 20 s by cards, 10 s by the panel)',
      responses: { 200: { description: 'The device' }, ...notFound },
    },
    {
      method: 'get',
      path: p('/deviceRegistered'),
      tag,
      summary: 'Registered (placed) devices: serial, label, brand, location_id',
    },
    {
      method: 'get',
      path: p('/avaliableDevice'),
      tag,
      summary: 'Serials provisioned but not placed (distributors)',
      description: 'The path keeps the historical spelling that existing clients call.',
    },
    {
      method: 'post',
      path: p('/addDevice'),
      tag,
      summary: 'Place an available serial on a site (distributors)',
      body: deviceFormSchema,
      responses: { 201: { description: 'The placed device' } },
    },
    {
      method: 'put',
      path: p('/editDevice/:serial'),
      tag,
      summary: 'Edit a placed device; pump types cannot change (distributors)',
      body: deviceFormSchema,
      responses: { 200: { description: 'The device' }, ...notFound },
    },
    {
      method: 'post',
      path: p('/deleteDevice/:serial'),
      tag,
      summary: 'Take a device off its site; its serial becomes available again (distributors)',
      responses: { 200: { description: "{ detail: 'Device has been deleted' }" }, ...notFound },
    },
    {
      method: 'post',
      path: p('/set_device_config/:serial'),
      tag,
      summary: 'Set one of active, is_enabled_maintenance, is_enabled_vandalism (pending until the device wakes)',
      body: deviceConfigSchema,
      responses: { 200: { description: 'Saved; pending_flags show what waits for the device' }, ...notFound },
    },
    {
      method: 'post',
      path: p('/setPauseDevice/:serial'),
      tag,
      summary: 'Pause or resume a device',
      body: pauseSchema,
      responses: { 200: { description: 'The device' }, ...notFound },
    },
    {
      method: 'get',
      path: p('/pumpSetting/:serial'),
      tag,
      summary: 'Pump setting (steps fixed at 300/s and 30/ml; ml_per_shot from pump mode 1-8)',
      responses: { 200: { description: 'The setting' }, ...notFound },
    },
    {
      method: 'put',
      path: p('/editPumpSetting/:serial'),
      tag,
      summary: 'Change pump modes or vandalism limits',
      body: pumpSettingSchema,
      responses: { 200: { description: 'The new setting' }, ...notFound },
    },
    {
      method: 'post',
      path: p('/deviceRegistrationSetup/:serial'),
      tag,
      summary: 'Power-off and wake-up timers in minutes (clamped to 1-600)',
      body: registrationSetupSchema,
      responses: { 200: { description: 'The timers saved' }, ...notFound },
    },
    {
      method: 'post',
      path: p('/resetMl/:serial'),
      tag,
      summary: "Reset a pump's remaining volume to its full reservoir after a refill",
      body: resetMlSchema,
      responses: { 200: { description: 'The device' }, ...notFound },
    },
    {
      method: 'post',
      path: p('/cancelPendingChange/:id'),
      tag,
      summary: 'Withdraw a pending change before the device takes it; the previous setting is restored',
      responses: { 200: { description: 'Cancelled; the device answer' }, 400: { description: 'No longer pending' }, ...notFound },
    },
    {
      method: 'get',
      path: p('/rentalV2/:serial'),
      tag,
      summary: 'Rental plan and daily timer of a device, with its day count',
      responses: { 200: { description: 'The plan (nulls when none)' }, ...notFound },
    },
    {
      method: 'post',
      path: p('/rentalV2'),
      tag,
      summary: 'Set one rental plan on several devices (all or nothing)',
      body: rentalSchema,
      responses: { 200: { description: "{ detail: 'New plan has been successfully set', rentals }" } },
    },
  ];
  return { router, docs };
}
