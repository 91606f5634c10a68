import { z } from 'zod';
import {
  batteryLogPointSchema,
  batteryLogRequestSchema,
  hourUsageSchema,
  monthDataUsageAnswerSchema,
  pumpLogAnswerSchema,
  pumpLogRequestSchema,
  simLogQuerySchema,
  simLogRowSchema,
  smsStatusAnswerSchema,
} from '../schemas/telemetry.schema.ts';
import { endpoint } from './endpoint.ts';

const tag = 'Telemetry';
const notFound = { 404: { description: 'Unknown serial, not on a site, or outside the caller scope' } };
const bad = { 400: { description: 'Invalid input: `{ field: [messages] }`' } };
const siteTime =
  'Buckets are cut in the site time zone (UTC when the site has none); labels are site-local ISO 8601 with offset.';

/** The telemetry reads of spec section 7 (paths exact, 'sms_status' included); every role may read, within its scope. */
export const telemetryApi = {
  getPumpLog: endpoint({
    method: 'post',
    path: '/api/v1/getPumpLog',
    tag,
    summary: 'Dispense counts and remaining volume per hour (DAILY), day (WEEKLY) or month (MONTHLY)',
    description: `${siteTime} DAILY: the hours of todayDate (23 or 25 on a daylight-saving change day). WEEKLY: 7 days ending at endDate. MONTHLY: whole months from startDate (default 6 months before endDate) to endDate. Devices: SINGLE the serial, ADDRESS its site, DISTRICT its county, ALL the caller scope (always within scope). Totals count pumps 1 and 2 over the whole range; remainDatas is the last level reading at or before each bucket end for SINGLE, null otherwise. Pump 2 on a device without a right pump answers empty series.`,
    body: pumpLogRequestSchema,
    responses: {
      200: {
        description:
          '{ total_left_pump_dispensation, total_right_pump_dispensation, dispensingDatas: [{date, value}], remainDatas: [{date, value}] }',
        schema: pumpLogAnswerSchema,
      },
      ...bad,
      ...notFound,
    },
  }),
  batteryLog: endpoint({
    method: 'post',
    path: '/api/v1/batteryLog',
    tag,
    summary: 'Battery readings of a device, oldest first (default the last year)',
    description: `${siteTime} Up to 2,000 readings in the range every reading is answered; beyond that one averaged point per site-local day.`,
    body: batteryLogRequestSchema,
    responses: {
      200: { description: '[{ battery_percent, battery_volt, update_on }]', schema: z.array(batteryLogPointSchema) },
      ...bad,
      ...notFound,
    },
  }),
  monthDataUsage: endpoint({
    method: 'get',
    path: '/api/v1/monthDataUsage/:serial/:date',
    tag,
    summary: "Mobile data used per site-local day of a month ('YYYY-MM' or any date of it)",
    description:
      "Every day of the month: usage in MB (kB / 1024, 2 decimals) and status LOW USAGE (< 50 % of the device's median day over the last 30 days), HIGH USAGE (> 150 %), NORMAL, or NO DATA (usage 0) for a day without readings.",
    responses: {
      200: { description: "{ 'YYYY-MM-DD': { status, usage } }", schema: monthDataUsageAnswerSchema },
      ...bad,
      ...notFound,
    },
  }),
  dataUsage: endpoint({
    method: 'get',
    path: '/api/v1/dataUsage/:serial/:date',
    tag,
    summary: 'Mobile data used per hour of a site-local day',
    description: `${siteTime} One entry per hour (23, 24 or 25): name 'HH:00', value MB, status against the median day / 24, start (local ISO) to tell a repeated fall-back hour apart.`,
    responses: {
      200: { description: '[{ name, value, status, start }]', schema: z.array(hourUsageSchema) },
      ...bad,
      ...notFound,
    },
  }),
  simLog: endpoint({
    method: 'get',
    path: '/api/v1/simLog/:serial',
    tag,
    summary: 'SMS log of a device, newest first (polled every 15 s)',
    query: simLogQuerySchema,
    responses: {
      200: {
        description: '[{ direction, message, created_when }] (created_when in site time)',
        schema: z.array(simLogRowSchema),
      },
      ...bad,
      ...notFound,
    },
  }),
  smsStatus: endpoint({
    method: 'post',
    path: '/api/v1/sms_status/:serial',
    tag,
    summary: 'SIM panel summary: SIM identity, signal quality and band, SMS and data over the last 30 days',
    description:
      "The spec does not show this call's answer; this is the SIM panel's summary. signal_band: no signal < 29, poor < 45, fair < 61, good < 77, excellent; 'error' without a reading; 'Unavailable' while the device is registering.",
    responses: {
      200: {
        description:
          '{ simcardPhoneNumber, imei, simSerialNumber, signal_quality, signal_band, last_sms_at, sms_in_30d, sms_out_30d, data_used_30d_mb }',
        schema: smsStatusAnswerSchema,
      },
      ...notFound,
    },
  }),
};
