import { serviceDayApi } from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { travelSourceFor } from './osrm-travel.ts';
import { serviceDayRepository } from './service-day.repository.ts';
import { serviceDayService } from './service-day.service.ts';

/** The service day's service of an app (its routes, and the maintenance record's progress hook). */
export const serviceDayServiceOf = (ctx: Pick<AppContext, 'db' | 'config' | 'now' | 'queue' | 'servicePlanEvents'>) =>
  serviceDayService({
    repo: serviceDayRepository(ctx.db),
    travel: travelSourceFor(ctx.config.routingUrl),
    now: ctx.now,
    publicUrl: ctx.config.publicUrl,
    enqueueMail: (payload, idempotencyKey) => ctx.queue.enqueue('service-plan-mail', payload, { idempotencyKey }),
    progressed: (ownerId, payload) => ctx.servicePlanEvents?.progressed(ownerId, payload),
  });

/** Crews and service plans (issue 48), declared in shared/src/api/service-day.ts. */
export function serviceDayRoutes(ctx: AppContext, service = serviceDayServiceOf(ctx)): Routes {
  const { router, docs, on } = endpointRoutes();
  on(serviceDayApi.crews, async (req, res) => {
    res.json(await service.listCrews(viewerOf(req)));
  });
  on(serviceDayApi.addCrew, async (req, res) => {
    res.status(201).json(await service.addCrew(viewerOf(req), req.body));
  });
  on(serviceDayApi.editCrew, async (req, res) => {
    res.json(await service.editCrew(viewerOf(req), String(req.params.id), req.body));
  });
  on(serviceDayApi.deleteCrew, async (req, res) => {
    res.json(await service.removeCrew(viewerOf(req), String(req.params.id)));
  });
  on(serviceDayApi.plan, async (req, res) => {
    res.status(201).json(await service.plan(viewerOf(req), req.body));
  });
  on(serviceDayApi.plans, async (req, res) => {
    res.json(await service.list(viewerOf(req), req.query));
  });
  on(serviceDayApi.get, async (req, res) => {
    res.json(await service.get(viewerOf(req), String(req.params.id)));
  });
  on(serviceDayApi.publish, async (req, res) => {
    res.json(await service.publish(viewerOf(req), String(req.params.id)));
  });
  return { router, docs };
}
