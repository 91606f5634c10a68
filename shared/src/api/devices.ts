import { z } from 'zod';
import { LOW_BATTERY_PERCENT } from '../constants.ts';
import { availableDeviceSchema, deviceAnswerSchema, deviceListItemSchema } from '../schemas/device-answer.schema.ts';
import {
  deviceConfigSchema,
  deviceListQuerySchema,
  deviceFormSchema,
  deviceLabelsQuerySchema,
  devicePageQuerySchema,
  pauseSchema,
  pumpSettingSchema,
  registrationSetupSchema,
  rentalSchema,
  resetMlSchema,
  statusCountsAnswerSchema,
} from '../schemas/device.schema.ts';
import { devicePinsSchema, PIN_BITS } from '../schemas/device-pin.schema.ts';
import { pumpSettingAnswerSchema, rentalAnswerSchema, rentalSavedSchema } from '../schemas/device-settings.schema.ts';
import { endpoint } from './endpoint.ts';

const tag = 'Devices';
const notFound = { 404: { description: 'Unknown serial, or outside the caller scope' } } as const;
const device = { description: 'The device', schema: deviceAnswerSchema };
// Permission before validation: a caller who may not make the change hears 403 (wrong role) or 404
// (a device outside its scope) whatever the body holds, never a 400 about a body it may not send.
const distributor = { roles: ['distributor'] } as const;
const operator = { roles: ['distributor', 'market-partner'] } as const;

/** The device calls of spec section 7 (paths exact, 'avaliableDevice' included: existing clients call it). */
export const devicesApi = {
  list: endpoint({
    method: 'get',
    path: '/api/v1/device',
    tag,
    summary: 'Placed devices in the caller scope, with every section 3 field',
    description:
      'Optional ?serials=A,B,C (at most 500): only those devices, same answer shape and order (what the push pollers read for watched cards, and the exclusive-management rows; not in the spec).',
    query: deviceListQuerySchema,
    responses: { 200: { description: 'The devices', schema: z.array(deviceListItemSchema) } },
  }),
  page: endpoint({
    method: 'get',
    path: '/api/v1/devicePage',
    tag,
    summary: 'One page of the placed devices in the caller scope, filtered and ordered by the server (issue 46)',
    description:
      "Keyset pagination in device id order: pass the previous answer's nextCursor as cursor (null on the last page). " +
      'total counts every device matching the filters (not only this page). Items have the shape of GET /api/v1/device. ' +
      "Not in the spec: the portal's own lists read this instead of the whole list.",
    query: devicePageQuerySchema,
    responses: {
      200: {
        description: 'The page',
        schema: z.object({ items: z.array(deviceListItemSchema), nextCursor: z.string().nullable(), total: z.number().int() }),
      },
      400: { description: 'A query parameter is not valid (the detail names it)' },
    },
  }),
  statusCounts: endpoint({
    method: 'get',
    path: '/api/v1/statusCounts',
    tag,
    summary: "The status report's counts of the placed devices in the caller scope, in all and per county (issue 46)",
    description:
      'The same devices as GET /api/v1/devicePage, counted by the rules of the /status report: online, registering ' +
      '(not online, in registration) and offline (neither) add up to total; warning, paused, maintenance and ' +
      `lowBattery (battery below ${LOW_BATTERY_PERCENT} %) each count the devices that are so. A county is the site's (null: a site ` +
      'of no county). What /status shows of a fleet too large to list whole. Not in the spec.',
    responses: { 200: { description: 'The counts', schema: statusCountsAnswerSchema } },
  }),
  pins: endpoint({
    method: 'get',
    path: '/api/v1/devicePins',
    tag,
    summary: 'Compact pin feed for the map: the placed devices of /device (same scope), one tuple each',
    description:
      `Each pin is [serial, lat, lng, bits, label, number, group, brand]; bits: ${Object.entries(PIN_BITS)
        .map(([flag, bit]) => `${bit} ${flag}`)
        .join(', ')}. Ordered by site (group), then device id. About 60 bytes a ` +
      'device before compression; live changes come over the push topics (device:changed). Not in the spec: an addition for the map.',
    responses: { 200: { description: 'Array of pin tuples', schema: devicePinsSchema } },
  }),
  get: endpoint({
    method: 'get',
    path: '/api/v1/device/:serial',
    tag,
    summary: 'One device (polled every 20 s by cards, 10 s by the panel)',
    responses: { 200: device, ...notFound },
  }),
  registered: endpoint({
    method: 'get',
    path: '/api/v1/deviceRegistered',
    tag,
    summary: 'Registered (placed) devices: serial, label, brand, location_id',
    responses: {
      200: {
        description: 'The placed devices in scope, by serial',
        schema: z.array(
          z.object({
            serial: z.string(),
            label: z.string(),
            brand: z.number().int().nullable(),
            location_id: z.number().int().nullable(),
          }),
        ),
      },
    },
  }),
  available: endpoint({
    method: 'get',
    path: '/api/v1/avaliableDevice',
    tag,
    summary: 'Serials provisioned but not placed (distributors)',
    description: 'The path keeps the historical spelling that existing clients call.',
    responses: { 200: { description: 'Unplaced devices, by serial', schema: z.array(availableDeviceSchema) } },
  }),
  add: endpoint({
    method: 'post',
    path: '/api/v1/addDevice',
    tag,
    ...distributor,
    summary: 'Place an available serial on a site (distributors)',
    body: deviceFormSchema,
    responses: { 201: { description: 'The placed device', schema: deviceAnswerSchema } },
  }),
  edit: endpoint({
    method: 'put',
    path: '/api/v1/editDevice/:serial',
    tag,
    ...distributor,
    summary: 'Edit a placed device; pump types cannot change (distributors)',
    body: deviceFormSchema,
    responses: { 200: device, ...notFound },
  }),
  remove: endpoint({
    method: 'post',
    path: '/api/v1/deleteDevice/:serial',
    tag,
    ...distributor,
    summary: 'Take a device off its site; its serial becomes available again (distributors)',
    responses: {
      200: { description: "{ detail: 'Device has been deleted' }", schema: z.object({ detail: z.string() }) },
      ...notFound,
    },
  }),
  setConfig: endpoint({
    method: 'post',
    path: '/api/v1/set_device_config/:serial',
    tag,
    ...operator,
    summary: 'Set one of active, is_enabled_maintenance, is_enabled_vandalism (pending until the device wakes)',
    body: deviceConfigSchema,
    responses: {
      200: {
        description: 'Saved; pending_flags show what waits for the device',
        schema: z.object({ detail: z.string(), device: deviceAnswerSchema }),
      },
      ...notFound,
    },
  }),
  setPause: endpoint({
    method: 'post',
    path: '/api/v1/setPauseDevice/:serial',
    tag,
    ...operator,
    summary: 'Pause or resume a device',
    body: pauseSchema,
    responses: { 200: device, ...notFound },
  }),
  pumpSetting: endpoint({
    method: 'get',
    path: '/api/v1/pumpSetting/:serial',
    tag,
    summary: 'Pump setting (steps fixed at 300/s and 30/ml; ml_per_shot from pump mode 1-8)',
    responses: { 200: { description: 'The setting', schema: pumpSettingAnswerSchema }, ...notFound },
  }),
  editPumpSetting: endpoint({
    method: 'put',
    path: '/api/v1/editPumpSetting/:serial',
    tag,
    ...operator,
    summary: 'Change pump modes or vandalism limits',
    body: pumpSettingSchema,
    responses: {
      200: { description: 'The new setting', schema: pumpSettingAnswerSchema.extend({ detail: z.string() }) },
      ...notFound,
    },
  }),
  registrationSetup: endpoint({
    method: 'post',
    path: '/api/v1/deviceRegistrationSetup/:serial',
    tag,
    ...operator,
    summary: 'Power-off and wake-up timers in minutes (clamped to 1-600)',
    body: registrationSetupSchema,
    responses: {
      200: {
        description: 'The timers saved',
        schema: z.object({ detail: z.string(), poweroff_time: z.number(), wakeup1_time: z.number(), device: deviceAnswerSchema }),
      },
      ...notFound,
    },
  }),
  resetMl: endpoint({
    method: 'post',
    path: '/api/v1/resetMl/:serial',
    tag,
    ...operator,
    summary: "Reset a pump's remaining volume to its full reservoir after a refill",
    body: resetMlSchema,
    responses: { 200: device, ...notFound },
  }),
  cancelPendingChange: endpoint({
    method: 'post',
    path: '/api/v1/cancelPendingChange/:id',
    tag,
    ...operator,
    summary: 'Withdraw a pending change before the device takes it; the previous setting is restored',
    responses: {
      200: { description: 'Cancelled; the device answer', schema: z.object({ detail: z.string(), device: deviceAnswerSchema }) },
      400: { description: 'No longer pending' },
      ...notFound,
    },
  }),
  rental: endpoint({
    method: 'get',
    path: '/api/v1/rentalV2/:serial',
    tag,
    summary: 'Rental plan and daily timer of a device, with its day count',
    responses: { 200: { description: 'The plan (nulls when none)', schema: rentalAnswerSchema }, ...notFound },
  }),
  setRental: endpoint({
    method: 'post',
    path: '/api/v1/rentalV2',
    tag,
    ...operator,
    summary: 'Set one rental plan on several devices (all or nothing)',
    body: rentalSchema,
    responses: { 200: { description: "{ detail: 'New plan has been successfully set', rentals }", schema: rentalSavedSchema } },
  }),
  labels: endpoint({
    method: 'get',
    path: '/api/v1/deviceLabels',
    tag,
    summary: 'Printable QR labels of devices (PDF): by serials, a site or a brand',
    description:
      'One of serials (comma-separated, at most 500), site (a site id) or brand (a brand id). Each label holds a QR code of `<PUBLIC_URL>/maintenance?device=<serial>` (a phone camera opens the field app at that device) with the serial printed under it. Every role, within its device scope; a named serial outside it answers 400 naming it.',
    query: deviceLabelsQuerySchema,
    responses: { 200: { description: 'application/pdf' } },
  }),
};
