import { z } from 'zod';
import {
  checkinAnswerSchema,
  checkinSchema,
  deviceSecretAnswerSchema,
  provisionDevicesSchema,
} from '../schemas/gateway.schema.ts';
import { endpoint } from './endpoint.ts';

const tag = 'Device gateway';

/** Distributor calls that manage device credentials and provisioning (the device gateway's own calls are under /device/v1). */
export const gatewayApi = {
  checkin: endpoint({
    method: 'post',
    path: '/device/v1/checkin',
    tag,
    auth: 'device',
    summary: 'A device checks in with its telemetry and gets its configuration and pending changes',
    body: checkinSchema,
    description:
      'Idempotent: dispenses and SMS carry the device sequence number; a retried upload never counts twice. Acknowledge applied changes in `applied` of the next check-in. Timestamps more than 5 minutes ahead of the server clock are refused.',
    responses: {
      200: { description: 'Stored; the configuration, pending changes and nextCheckinBy', schema: checkinAnswerSchema },
      401: { description: 'Wrong serial or secret: nothing stored' },
    },
  }),
  config: endpoint({
    method: 'get',
    path: '/device/v1/config',
    tag,
    auth: 'device',
    summary: 'The configuration and pending changes, without uploading',
    responses: {
      200: {
        description: 'The configuration, pending changes and nextCheckinBy',
        schema: checkinAnswerSchema.pick({ config: true, pending: true, nextCheckinBy: true }),
      },
      401: { description: 'Wrong serial or secret' },
    },
  }),
  deviceSecret: endpoint({
    method: 'post',
    path: '/api/v1/deviceSecret/:serial',
    tag,
    summary: 'Rotate the secret of a device (distributors; shown once)',
    responses: {
      200: { description: '{ serial, secret }', schema: deviceSecretAnswerSchema },
      404: { description: 'Unknown serial' },
    },
  }),
  provisionDevices: endpoint({
    method: 'post',
    path: '/api/v1/provisionDevices',
    tag,
    summary: 'Register new serials, unplaced (distributors)',
    body: provisionDevicesSchema,
    responses: { 201: { description: '{ provisioned }', schema: z.object({ provisioned: z.number().int() }) } },
  }),
};
