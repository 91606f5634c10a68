import { z } from 'zod';
import { exclusiveDevicesSchema, NOT_A_PARTNER, partnerUserSchema } from '../schemas/partner.schema.ts';
import { endpoint } from './endpoint.ts';

const tag = 'Market partners';
const detail = z.object({ detail: z.string() });
const distributorOnly = 'Distributors only: clients, market-partner users and the maintenance credential get 403.';
const writeResponses = {
  200: { description: 'The market-partner user with its exclusive devices now', schema: partnerUserSchema },
  400: {
    description: `Unknown serials: {"deviceSerials": ["Unknown device: X"]}; not a partner: {"email": ["${NOT_A_PARTNER}"]}`,
  },
  404: { description: 'No user with this email', schema: detail },
};

/** Market partners and their exclusive devices (distributors only). */
export const partnersApi = {
  allUser: endpoint({
    method: 'get',
    path: '/api/v1/allUser',
    tag,
    summary: 'Users with company and exclusive device data (exclusive_device_serials, exclusive_devices ids)',
    description: `${distributorOnly} Every account except rejected sign-ups, by company (ignoring case) then name. The exclusive lists are empty for users that are not market partners.`,
    responses: { 200: { description: 'The users', schema: z.array(partnerUserSchema) } },
  }),
  addExclusiveDevices: endpoint({
    method: 'post',
    path: '/api/v1/addExclusiveDevices/:email',
    tag,
    summary: 'Make devices exclusive to a market-partner user (it then sees them, over REST and sockets)',
    description: `${distributorOnly} One transaction: every serial must exist or nothing is saved. A device may be exclusive to several partners; adding one it already has changes nothing.`,
    body: exclusiveDevicesSchema,
    responses: writeResponses,
  }),
  removeExclusiveDevices: endpoint({
    method: 'post',
    path: '/api/v1/removeExclusiveDevices/:email',
    tag,
    summary: 'Take devices from a market-partner user',
    description: `${distributorOnly} From the commit on the partner no longer reads them over REST, and its open sockets leave those devices' rooms, so no further push of them reaches it; a new subscription is refused.`,
    body: exclusiveDevicesSchema,
    responses: writeResponses,
  }),
};
