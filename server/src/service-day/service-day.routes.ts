import { Router } from 'express';
import { z } from 'zod';
import { crewInputSchema, crewSchema, servicePlanRequestSchema, servicePlanSchema, servicePlansQuerySchema } from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
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

/** Crews and service plans (issue 48): the calls other tools rely on, with these exact names. */
export function serviceDayRoutes(ctx: AppContext, service = serviceDayServiceOf(ctx)): Routes {
  const router = Router();
  router.get('/crews', async (req, res) => {
    res.json(await service.listCrews(viewerOf(req)));
  });
  router.post('/crews', async (req, res) => {
    res.status(201).json(await service.addCrew(viewerOf(req), req.body));
  });
  router.put('/crews/:id', async (req, res) => {
    res.json(await service.editCrew(viewerOf(req), req.params.id, req.body));
  });
  router.delete('/crews/:id', async (req, res) => {
    res.json(await service.removeCrew(viewerOf(req), req.params.id));
  });
  router.post('/servicePlans', async (req, res) => {
    res.status(201).json(await service.plan(viewerOf(req), req.body));
  });
  router.get('/servicePlans', async (req, res) => {
    res.json(await service.list(viewerOf(req), req.query));
  });
  router.get('/servicePlans/:id', async (req, res) => {
    res.json(await service.get(viewerOf(req), req.params.id));
  });
  router.post('/servicePlans/:id/publish', async (req, res) => {
    res.json(await service.publish(viewerOf(req), req.params.id));
  });

  const tag = 'Service day';
  const detail = z.object({ detail: z.string() });
  const who =
    'Distributors and market partners, each on its own crews and plans (a partner plans over its exclusive devices only); clients get 403.';
  const noCrew = { description: 'No crew with this id (of the caller)', schema: detail };
  const noPlan = { description: 'No service plan with this id (of the caller)', schema: detail };
  const docs: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/crews',
      tag,
      summary: "The caller's crews",
      description: who,
      responses: { 200: { description: 'Crews', schema: z.array(crewSchema) } },
    },
    {
      method: 'post',
      path: '/api/v1/crews',
      tag,
      summary: 'Add a crew: contact, depot (address and coordinates), working hours in the depot zone, van capacity',
      description: `${who} A depot without coordinates, hours that end before they start, or a negative capacity answer 400 naming the field.`,
      body: crewInputSchema,
      responses: { 201: { description: 'The crew, with its depot time zone', schema: crewSchema } },
    },
    {
      method: 'put',
      path: '/api/v1/crews/:id',
      tag,
      summary: 'Edit a crew (the whole crew, as POST)',
      description: who,
      body: crewInputSchema,
      responses: { 200: { description: 'The crew', schema: crewSchema }, 404: noCrew },
    },
    {
      method: 'delete',
      path: '/api/v1/crews/:id',
      tag,
      summary: 'Delete a crew (plans made keep their copy)',
      description: who,
      responses: { 200: { description: 'Crew deleted.', schema: detail }, 404: noCrew },
    },
    {
      method: 'post',
      path: '/api/v1/servicePlans',
      tag,
      summary:
        'Plan a day: due sites assigned to the crews and ordered, ETAs in site time, refills and pick lists; stored as a draft version',
      description: `${who} With no crews or nothing due the plan says so in \`note\`. What cannot fit is in \`unplanned\` with \`why\`. Travel times: ROUTING_URL's OSRM /table when set, else great-circle x 1.3 at 45 km/h.`,
      body: servicePlanRequestSchema,
      responses: {
        201: { description: 'The plan', schema: servicePlanSchema },
        502: { description: 'The routing service did not answer', schema: detail },
      },
    },
    {
      method: 'get',
      path: '/api/v1/servicePlans',
      tag,
      summary: "The caller's plans of a date, every version, newest first",
      description: `${who} The maintenance credential (the field app) reads the published plans of the date, every owner's (in progress and done included), and no other service day call.`,
      query: servicePlansQuerySchema,
      responses: { 200: { description: 'Plans', schema: z.array(servicePlanSchema) } },
    },
    {
      method: 'get',
      path: '/api/v1/servicePlans/:id',
      tag,
      summary: 'One plan with its progress',
      description: who,
      responses: { 200: { description: 'The plan', schema: servicePlanSchema }, 404: noPlan },
    },
    {
      method: 'post',
      path: '/api/v1/servicePlans/:id/publish',
      tag,
      summary:
        "Publish a plan: the owner's one published plan of its date; each crew is mailed its part (a link to /maintenance and a PDF)",
      description: `${who} Idempotent. A plan published before for the same date becomes 'superseded' and stays readable. Progress: a stop is done when each of its devices has a maintenance record since publishing (socket event servicePlan:progressed).`,
      responses: { 200: { description: 'The published plan', schema: servicePlanSchema }, 404: noPlan },
    },
  ];
  return { router, docs };
}
