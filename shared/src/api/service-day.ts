import { z } from 'zod';
import {
  crewInputSchema,
  crewSchema,
  servicePlanRequestSchema,
  servicePlanSchema,
  servicePlansQuerySchema,
} from '../schemas/service-day.schema.ts';
import { endpoint } from './endpoint.ts';

/**
 * Crews and service plans (issue 48), with the exact paths other tools rely on. Who may call is checked in
 * the service (server/src/service-day/service-day.service.ts): the maintenance credential reads published
 * plans and nothing else, which a role list cannot say.
 */
const tag = 'Service day';
const detail = z.object({ detail: z.string() });
const who =
  'Distributors and market partners, each on its own crews and plans (a partner plans over its exclusive devices only); clients get 403.';
const noCrew = { description: 'No crew with this id (of the caller)', schema: detail };
const noPlan = { description: 'No service plan with this id (of the caller)', schema: detail };

export const serviceDayApi = {
  crews: endpoint({
    method: 'get',
    path: '/api/v1/crews',
    tag,
    summary: "The caller's crews",
    description: who,
    responses: { 200: { description: 'Crews', schema: z.array(crewSchema) } },
  }),
  addCrew: endpoint({
    method: 'post',
    path: '/api/v1/crews',
    tag,
    summary: 'Add a crew: contact, depot (address and coordinates), working hours in the depot zone, van capacity',
    description: `${who} A depot without coordinates, hours that end before they start, or a negative capacity answer 400 naming the field.`,
    body: crewInputSchema,
    responses: { 201: { description: 'The crew, with its depot time zone', schema: crewSchema } },
  }),
  editCrew: endpoint({
    method: 'put',
    path: '/api/v1/crews/:id',
    tag,
    summary: 'Edit a crew (the whole crew, as POST)',
    description: who,
    body: crewInputSchema,
    responses: { 200: { description: 'The crew', schema: crewSchema }, 404: noCrew },
  }),
  deleteCrew: endpoint({
    method: 'delete',
    path: '/api/v1/crews/:id',
    tag,
    summary: 'Delete a crew (plans made keep their copy)',
    description: who,
    responses: { 200: { description: 'Crew deleted.', schema: detail }, 404: noCrew },
  }),
  plan: endpoint({
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
  }),
  plans: endpoint({
    method: 'get',
    path: '/api/v1/servicePlans',
    tag,
    summary: "The caller's plans of a date, every version, newest first",
    description: `${who} The maintenance credential (the field app) reads the published plans of the date, every owner's (in progress and done included), and no other service day call.`,
    query: servicePlansQuerySchema,
    responses: { 200: { description: 'Plans', schema: z.array(servicePlanSchema) } },
  }),
  get: endpoint({
    method: 'get',
    path: '/api/v1/servicePlans/:id',
    tag,
    summary: 'One plan with its progress',
    description: who,
    responses: { 200: { description: 'The plan', schema: servicePlanSchema }, 404: noPlan },
  }),
  publish: endpoint({
    method: 'post',
    path: '/api/v1/servicePlans/:id/publish',
    tag,
    summary:
      "Publish a plan: the owner's one published plan of its date; each crew is mailed its part (a link to /maintenance and a PDF)",
    description: `${who} Idempotent. A plan published before for the same date becomes 'superseded' and stays readable. Progress: a stop is done when each of its devices has a maintenance record since publishing (socket event servicePlan:progressed).`,
    responses: { 200: { description: 'The published plan', schema: servicePlanSchema }, 404: noPlan },
  }),
};
