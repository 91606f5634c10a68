import {
  batteryLogRequestSchema,
  dataUsageParamsSchema,
  monthDataUsageParamsSchema,
  pumpLogRequestSchema,
  serialParamsSchema,
  simLogQuerySchema,
  telemetryApi,
} from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import { parse } from '../lib/errors.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { telemetryRepository } from './telemetry.repository.ts';
import { telemetryService } from './telemetry.service.ts';

/**
 * The telemetry reads of spec section 7 (paths exact, 'sms_status' included). Every role may read, within
 * its scope; every input is checked with the shared schemas (400 `{ field: [messages] }`).
 */
export function telemetryRoutes(ctx: AppContext): Routes {
  const service = telemetryService({ repo: telemetryRepository(ctx.db), now: ctx.now });
  const { router, docs, on } = endpointRoutes();

  on(
    telemetryApi.getPumpLog,
    async (req, res) => void res.json(await service.pumpLog(viewerOf(req), parse(pumpLogRequestSchema, req.body))),
  );
  on(
    telemetryApi.batteryLog,
    async (req, res) => void res.json(await service.batteryLog(viewerOf(req), parse(batteryLogRequestSchema, req.body))),
  );
  on(telemetryApi.monthDataUsage, async (req, res) => {
    const p = parse(monthDataUsageParamsSchema, req.params);
    res.json(await service.monthDataUsage(viewerOf(req), p.serial, p.date));
  });
  on(telemetryApi.dataUsage, async (req, res) => {
    const p = parse(dataUsageParamsSchema, req.params);
    res.json(await service.dataUsage(viewerOf(req), p.serial, p.date));
  });
  on(telemetryApi.simLog, async (req, res) => {
    const { serial } = parse(serialParamsSchema, req.params);
    const { limit } = parse(simLogQuerySchema, req.query);
    res.json(await service.simLog(viewerOf(req), serial, limit));
  });
  on(
    telemetryApi.smsStatus,
    async (req, res) => void res.json(await service.smsStatus(viewerOf(req), parse(serialParamsSchema, req.params).serial)),
  );

  return { router, docs };
}
