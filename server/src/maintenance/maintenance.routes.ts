import { Router } from 'express';
import { z } from 'zod';
import {
  maintenanceCredentialRotatedSchema,
  maintenanceCredentialStatusSchema,
  maintenanceDeviceSchema,
  maintenanceDevicesQuerySchema,
  maintenanceRecordInputSchema,
  maintenanceRecordSchema,
  maintenanceRecordsQuerySchema,
} from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
import { serviceDayServiceOf } from '../service-day/index.ts';
import { maintenanceRepository } from './maintenance.repository.ts';
import { maintenanceService } from './maintenance.service.ts';
import { devicesRepository, devicesService } from '../devices/index.ts';
import express from 'express';
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

/** The calls of the /maintenance and /maintenance-result pages (paths of our choosing: the spec names none). */
export function maintenanceRoutes(
  ctx: AppContext,
  service = maintenanceServiceOf(ctx),
  serviceDay = serviceDayServiceOf(ctx),
): Routes {
  const router = Router();

  router.get('/maintenanceDevices', async (req, res) => {
    res.json(await service.devices(viewerOf(req), req.query));
  });
  router.post('/maintenanceRecord', async (req, res) => {
    const { record, duplicate } = await service.record(viewerOf(req), req.body);
    // The device's pollers push its new volumes, batch and warnings now (forecasts, dashboards, Service day).
    if (!duplicate && record.refills.length) ctx.pollNudge?.devicesChanged([record.serial]);
    res.status(duplicate ? 200 : 201).json(record);
    // A service plan visiting this device may move on (issue 48); its owner's Service day view hears it live.
    if (!duplicate)
      serviceDay.deviceServiced(record.serial).catch((err: unknown) => ctx.log('service plan progress failed', err));
  });
  router.get('/maintenanceRecord/:id/photo', async (req, res) => {
    const photo = await service.photo(viewerOf(req), parse(z.coerce.number().int().positive(), req.params.id));
    res.type('image/jpeg').set('Cache-Control', 'private, max-age=3600').send(photo);
  });
  router.get('/maintenanceRecords', async (req, res) => {
    res.json(await service.records(viewerOf(req), req.query));
  });
  router.get('/maintenanceCredential', async (req, res) => {
    res.json(await service.credentialStatus(viewerOf(req)));
  });
  router.post('/maintenanceCredential/rotate', async (req, res) => {
    res.json(await service.rotateCredential(viewerOf(req)));
  });
  router.post('/maintenanceCredential/revoke', async (req, res) => {
    res.json(await service.revokeCredential(viewerOf(req)));
  });

  const tag = 'Maintenance';
  const credential = 'Authorization: `Token <maintenance credential>` (the /maintenance page) or a signed-in user token.';
  const manager = 'Distributors only (not market partners, not the maintenance credential): others get 403.';
  const docs: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/maintenanceDevices',
      tag,
      summary: 'Devices in maintenance or needing it, soonest to run dry first',
      description: `${credential} Scoped like the device list (the credential sees every device). Listed when in maintenance, with warnings, low fluid (volume_remain <= 250), low battery (< 50 %), a batch expired / recalled / almost expired, or a pump forecast to run dry within 7 days. Each pump's forecast: days until empty from that device's dispensing rate by hour of the week over the last 4 weeks (pump_events), with its basis ("~3 days at the last 4 weeks' rate"; "not enough data" with less than a day of history or no dispensing). With \`serials\`: those devices whatever their reasons (the field app's scanned device and its day's plan); a serial outside the caller's scope is absent from the answer.`,
      query: maintenanceDevicesQuerySchema,
      responses: { 200: { description: 'The devices', schema: z.array(maintenanceDeviceSchema) } },
    },
    {
      method: 'post',
      path: '/api/v1/maintenanceRecord',
      tag,
      summary:
        'Record what was done on a device: refills per pump with their batch, battery replaced, repaired with a note, a photo',
      description: `${credential} The maintenance credential, distributors, and market partners on their own devices; clients get 403. A device outside the caller's scope answers {"serial": ["No device with this serial."]}. The first body ({serial, actions, note}) is a log entry only. A refill ({pump, batch}) sets that pump's remaining volume to its full reservoir and its batch, as resetMl and the device forms do (the batch must hold the pump's fluid and not have expired on the day of the act; one recalled meanwhile is taken, and the device warns Batch recalled: the answer's warnings say so). performed_at: the phone's time of the act, within the last 7 days, never in the future. idempotency_key: sent again, the stored record is answered with 200 and nothing changes. crew: declared by the technician, not proven (the credential is shared). photo: base64 JPEG, at most 1 MB.`,
      body: maintenanceRecordInputSchema,
      responses: {
        201: { description: 'The record', schema: maintenanceRecordSchema },
        200: { description: 'The same record, already stored under this idempotency key', schema: maintenanceRecordSchema },
      },
    },
    {
      method: 'get',
      path: '/api/v1/maintenanceRecord/:id/photo',
      tag,
      summary: "A record's photo (image/jpeg)",
      description: `${credential} Every signed-in role, within its device scope; 404 without a photo.`,
      responses: { 200: { description: 'image/jpeg' } },
    },
    {
      method: 'get',
      path: '/api/v1/maintenanceRecords',
      tag,
      summary: 'What was done, most recent first (the /maintenance-result page)',
      description: `${credential} Every signed-in role, within its device scope. Each record carries its site's time zone (timezone_id) for display.`,
      query: maintenanceRecordsQuerySchema,
      responses: { 200: { description: 'The records', schema: z.array(maintenanceRecordSchema) } },
    },
    {
      method: 'get',
      path: '/api/v1/maintenanceCredential',
      tag,
      summary: 'Whether a maintenance credential is active (never its value)',
      description: manager,
      responses: { 200: { description: 'Status', schema: maintenanceCredentialStatusSchema } },
    },
    {
      method: 'post',
      path: '/api/v1/maintenanceCredential/rotate',
      tag,
      summary: 'Revoke every maintenance credential and make a new one, shown this once',
      description: `${manager} Only a keyed hash is stored. The answer's link opens /maintenance with the credential in the URL fragment (never sent to a server).`,
      responses: { 200: { description: 'The new credential', schema: maintenanceCredentialRotatedSchema } },
    },
    {
      method: 'post',
      path: '/api/v1/maintenanceCredential/revoke',
      tag,
      summary: 'Revoke every maintenance credential (the configured one stays revoked after a restart)',
      description: `${manager} /maintenance then asks for a credential nobody has until a distributor rotates one or configuration brings a new MAINTENANCE_TOKEN.`,
      responses: { 200: { description: 'How many were revoked', schema: z.object({ revoked: z.number() }) } },
    },
  ];
  // A record may carry a photo (a JPEG of at most 1 MB, base64 in the JSON): this one call parses bodies up
  // to 1.5 MB, after the token is checked (a mount: app.ts), before the portal's 100 kB limit.
  const largeBody = Router().use(express.json({ limit: '1500kb' }));
  return { router, docs, mounts: [{ path: '/api/v1/maintenanceRecord', router: largeBody }] };
}
