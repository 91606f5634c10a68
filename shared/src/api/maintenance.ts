import { z } from 'zod';
import {
  maintenanceCredentialRotatedSchema,
  maintenanceCredentialStatusSchema,
  maintenanceDeviceSchema,
  maintenanceDevicesQuerySchema,
  maintenanceRecordInputSchema,
  maintenanceRecordSchema,
  maintenanceRecordsQuerySchema,
} from '../schemas/maintenance.schema.ts';
import { endpoint } from './endpoint.ts';

/**
 * The calls of /maintenance (the field app, issue 44) and /maintenance-result: paths of our choosing, the spec
 * names none. Who may call is checked in the service (server/src/maintenance/maintenance.service.ts): the
 * maintenance credential is a read-only distributor there, allowed to record but not to manage credentials,
 * which a role list cannot say.
 */
const tag = 'Maintenance';
const detail = z.object({ detail: z.string() });
const credential = 'Authorization: `Token <maintenance credential>` (the /maintenance page) or a signed-in user token.';
const manager = 'Distributors only (not market partners, not the maintenance credential): others get 403.';
/** A refused record: `{field: [messages]}` (a serial outside the scope, an expired batch) or `{detail}`. */
const refusal = z.union([detail, z.record(z.string(), z.array(z.string()))]);

export const maintenanceApi = {
  devices: endpoint({
    method: 'get',
    path: '/api/v1/maintenanceDevices',
    tag,
    summary: 'Devices in maintenance or needing it, soonest to run dry first',
    description: `${credential} Scoped like the device list (the credential sees every device). Listed when in maintenance, with warnings, low fluid (volume_remain <= 250), low battery (< 50 %), a batch expired / recalled / almost expired, or a pump forecast to run dry within 7 days. Each pump's forecast: days until empty from that device's dispensing rate by hour of the week over the last 4 weeks (pump_events), with its basis ("~3 days at the last 4 weeks' rate"; "not enough data" with less than a day of history or no dispensing). With \`serials\`: those devices whatever their reasons (the field app's scanned device and its day's plan); a serial outside the caller's scope is absent from the answer.`,
    query: maintenanceDevicesQuerySchema,
    responses: { 200: { description: 'The devices', schema: z.array(maintenanceDeviceSchema) } },
  }),
  record: endpoint({
    method: 'post',
    path: '/api/v1/maintenanceRecord',
    tag,
    summary:
      'Record what was done on a device: refills per pump with their batch, battery replaced, repaired with a note, a photo',
    description: `${credential} The maintenance credential, distributors, and market partners on their own devices; clients get 403. A device outside the caller's scope answers {"serial": ["No device with this serial."]}. The first body ({serial, actions, note}) is a log entry only. A refill ({pump, batch}) sets that pump's remaining volume to its full reservoir and its batch, as resetMl and the device forms do (the batch must hold the pump's fluid and not have expired on the day of the act; one recalled meanwhile is taken, and the device warns Batch recalled: the answer's warnings say so). performed_at: the phone's time of the act, within the last 7 days, never in the future. idempotency_key: sent again, the stored record is answered with 200 and nothing changes (409 when the key was used for another device). crew: declared by the technician, not proven (the credential is shared). photo: base64 JPEG (or a data: URL), at most 1 MB decoded; this one call takes bodies up to 1.5 MB (413 beyond).`,
    body: maintenanceRecordInputSchema,
    responses: {
      201: { description: 'The record', schema: maintenanceRecordSchema },
      200: { description: 'The same record, already stored under this idempotency key', schema: maintenanceRecordSchema },
      400: { description: 'Refused, with the reason by field (the serial, a batch, the note, the time)', schema: refusal },
      409: { description: 'This idempotency key was used for another device', schema: refusal },
    },
  }),
  photo: endpoint({
    method: 'get',
    path: '/api/v1/maintenanceRecord/:id/photo',
    tag,
    summary: "A record's photo (image/jpeg)",
    description: `${credential} Every signed-in role, within its device scope; 404 without a photo.`,
    responses: { 200: { description: 'image/jpeg' }, 404: { description: 'No such record, or no photo', schema: detail } },
  }),
  records: endpoint({
    method: 'get',
    path: '/api/v1/maintenanceRecords',
    tag,
    summary: 'What was done, most recent first (the /maintenance-result page)',
    description: `${credential} Every signed-in role, within its device scope. Each record carries its site's time zone (timezone_id) for display.`,
    query: maintenanceRecordsQuerySchema,
    responses: { 200: { description: 'The records', schema: z.array(maintenanceRecordSchema) } },
  }),
  credential: endpoint({
    method: 'get',
    path: '/api/v1/maintenanceCredential',
    tag,
    summary: 'Whether a maintenance credential is active (never its value)',
    description: manager,
    responses: { 200: { description: 'Status', schema: maintenanceCredentialStatusSchema } },
  }),
  rotateCredential: endpoint({
    method: 'post',
    path: '/api/v1/maintenanceCredential/rotate',
    tag,
    summary: 'Revoke every maintenance credential and make a new one, shown this once',
    description: `${manager} Only a keyed hash is stored. The answer's link opens /maintenance with the credential in the URL fragment (never sent to a server).`,
    responses: { 200: { description: 'The new credential', schema: maintenanceCredentialRotatedSchema } },
  }),
  revokeCredential: endpoint({
    method: 'post',
    path: '/api/v1/maintenanceCredential/revoke',
    tag,
    summary: 'Revoke every maintenance credential (the configured one stays revoked after a restart)',
    description: `${manager} /maintenance then asks for a credential nobody has until a distributor rotates one or configuration brings a new MAINTENANCE_TOKEN.`,
    responses: { 200: { description: 'How many were revoked', schema: z.object({ revoked: z.number() }) } },
  }),
};
