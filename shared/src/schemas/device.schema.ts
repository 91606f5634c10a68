import { z } from 'zod';
import { DEVICE_NUMBER_MAX, DEVICE_NUMBER_MIN, LOCATION_EVENT_TYPES, PUMP_TYPES } from '../constants.ts';
import { isQuarterHour, RENTAL_MESSAGES } from '../rules/rental.ts';
import { text } from './common.ts';

/** The spec's form message for a missing field is 'Required'. */
const REQUIRED = 'Required';
const NUMBER_RANGE = `Device numbers go from ${DEVICE_NUMBER_MIN} to ${DEVICE_NUMBER_MAX}.`;
const blank = (v: unknown) => v === '' || v === null || (typeof v === 'string' && v.trim() === '');
/** Blank form values count as missing, so they get the spec's 'Required'. */
const req = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (blank(v) ? undefined : v), schema);
const toNumber = (v: unknown) => (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v)) ? Number(v) : v);

const requiredString = (max: number) =>
  req(
    z
      .string({ error: (i) => (i.input === undefined ? REQUIRED : 'Must be a string.') })
      .trim()
      .min(1, { error: REQUIRED })
      .max(max, { error: `Ensure this field has no more than ${max} characters.` }),
  );

const intField = (msg: string) =>
  z.preprocess(toNumber, z.number({ error: (i) => (i.input === undefined ? REQUIRED : msg) }).int({ error: msg }));

/** A batch chosen in a device form: its id, or its batch number. */
const batchRef = z.union([z.number().int().positive(), z.string().trim().min(1).max(64)], { error: REQUIRED });

const latLng = z.object(
  {
    lat: z.number({ error: 'Please Select Address From DropDown' }).min(-90).max(90),
    lng: z.number({ error: 'Please Select Address From DropDown' }).min(-180).max(180),
  },
  { error: 'Please Select Address From DropDown' },
);

const pumpType = z.enum(PUMP_TYPES, { error: `Choose one of ${PUMP_TYPES.join(', ')}.` });

/** A device serial in a path or a subscription. */
export const serialSchema = z
  .string({ error: 'Unknown serial.' })
  .trim()
  .min(1, { error: 'Unknown serial.' })
  .max(64, { error: 'Unknown serial.' });

/** A cross-field rule runs once the fields it reads are valid themselves, whatever the others are. */
const unlessInvalid =
  (...fields: string[]) =>
  (payload: { issues: readonly { path?: readonly PropertyKey[] | undefined }[] }) =>
    !payload.issues.some((issue) => fields.includes(String(issue.path?.[0])));

/** POST /api/v1/addDevice and PUT /api/v1/editDevice/{serial}: the Add/Edit Device form (spec section 5). */
export const deviceFormSchema = z
  .object({
    serialNumber: req(
      z
        .string({ error: 'Please select the serial number in the list above' })
        .trim()
        .min(1, { error: 'Please select the serial number in the list above' })
        .max(64, { error: 'Please select the serial number in the list above' }),
    ),
    deviceName: requiredString(120),
    brandId: req(intField('Choose a brand.')).pipe(z.number().positive({ error: 'Choose a brand.' })),
    deviceNumber: req(intField(NUMBER_RANGE)).pipe(
      z.number().min(DEVICE_NUMBER_MIN, { error: NUMBER_RANGE }).max(DEVICE_NUMBER_MAX, { error: NUMBER_RANGE }),
    ),
    batchNumber: req(batchRef),
    batch2Number: batchRef.optional().nullable().or(z.literal('')),
    address: requiredString(300),
    location: z.preprocess((v) => v ?? undefined, latLng),
    leftPumpType: pumpType.default('Sunscreen'),
    rightPumpType: pumpType.default('Unspecified'),
    locationEventType: z.enum(LOCATION_EVENT_TYPES, { error: 'Choose SITE or EVENT.' }).default('SITE'),
    simcardPhoneNumber: text(32).optional().nullable(),
    imei: text(32).optional().nullable(),
    simSerialNumber: text(32).optional().nullable(),
  })
  // These run even when another field is wrong (zod skips refinements of an invalid object otherwise), so a
  // form shows the right batch's 'Required' together with the other messages, not after fixing them.
  .refine(
    (v) =>
      v.rightPumpType === 'Unspecified' || (v.batch2Number !== undefined && v.batch2Number !== null && v.batch2Number !== ''),
    {
      path: ['batch2Number'],
      error: REQUIRED,
      when: unlessInvalid('rightPumpType', 'batch2Number'),
    },
  )
  .refine((v) => v.leftPumpType !== 'Unspecified', {
    path: ['leftPumpType'],
    error: 'The left pump needs a fluid.',
    when: unlessInvalid('leftPumpType'),
  });
export type DeviceFormInput = z.infer<typeof deviceFormSchema>;

/** POST /api/v1/set_device_config/{serial}: exactly one setting per call. */
export const deviceConfigSchema = z
  .object({
    active: z.boolean({ error: 'Must be true or false.' }).optional(),
    is_enabled_maintenance: z.boolean({ error: 'Must be true or false.' }).optional(),
    is_enabled_vandalism: z.boolean({ error: 'Must be true or false.' }).optional(),
  })
  .strict()
  .refine((v) => Object.values(v).filter((x) => x !== undefined).length === 1, {
    error: 'Send one of active, is_enabled_maintenance, is_enabled_vandalism.',
    path: ['non_field_errors'],
  });

export const pauseSchema = z.object({
  isPause: z.boolean({ error: (i) => (i.input === undefined ? REQUIRED : 'Must be true or false.') }),
});

/** PUT /api/v1/editPumpSetting/{serial}: steps are fixed (300 steps/s, 30 steps/ml); ml_per_shot follows pump mode 1..8. */
export const pumpSettingSchema = z.object({
  steps_per_second: z.literal(300, { error: 'steps_per_second is fixed at 300.' }).optional(),
  steps_per_ml: z.literal(30, { error: 'steps_per_ml is fixed at 30.' }).optional(),
  steps_per_second2: z.literal(300, { error: 'steps_per_second2 is fixed at 300.' }).optional(),
  steps_per_ml2: z.literal(30, { error: 'steps_per_ml2 is fixed at 30.' }).optional(),
  ml_per_shot: z.number({ error: 'Must be a number.' }).positive().max(20).optional(),
  ml_per_shot2: z.number({ error: 'Must be a number.' }).positive().max(20).optional(),
  pump_mode: z
    .number()
    .int()
    .min(1, { error: 'Pump mode goes from 1 to 8.' })
    .max(8, { error: 'Pump mode goes from 1 to 8.' })
    .optional(),
  pump_mode2: z
    .number()
    .int()
    .min(1, { error: 'Pump mode goes from 1 to 8.' })
    .max(8, { error: 'Pump mode goes from 1 to 8.' })
    .optional(),
  vandalism_max_shots: z
    .number({ error: 'Must be a number.' })
    .int()
    .min(1, { error: 'Between 1 and 100 shots.' })
    .max(100, { error: 'Between 1 and 100 shots.' })
    .optional(),
  vandalism_interval: z
    .number({ error: 'Must be a number.' })
    .int()
    .min(1, { error: 'Between 1 and 3600 seconds.' })
    .max(3600, { error: 'Between 1 and 3600 seconds.' })
    .optional(),
});

/** POST /api/v1/deviceRegistrationSetup/{serial}: timer minutes, clamped to 1..600 by the server. */
export const registrationSetupSchema = z.object({
  powerOffTime: z.preprocess(
    toNumber,
    z.number({ error: (i) => (i.input === undefined ? REQUIRED : 'Must be a number of minutes.') }),
  ),
  wakeUpTime: z.preprocess(
    toNumber,
    z.number({ error: (i) => (i.input === undefined ? REQUIRED : 'Must be a number of minutes.') }),
  ),
});

export const resetMlSchema = z.object({
  pumpNumber: z.union([z.literal(1), z.literal(2)], { error: 'pumpNumber is 1 (left) or 2 (right).' }),
});

const dateField = z.iso.date({ error: (i) => (i.input === undefined ? REQUIRED : 'Use the YYYY-MM-DD format.') });
const timeField = z
  .string({ error: 'Use the HH:mm format.' })
  .refine(isQuarterHour, { error: 'Times go in 15-minute steps (HH:mm).' });

/** POST /api/v1/rentalV2: the rental plan write payload of spec section 3. */
export const rentalSchema = z
  .object({
    serials: z
      .array(z.string().trim().min(1).max(64), { error: REQUIRED })
      .min(1, { error: 'Select at least one device.' })
      .max(500),
    startDate: dateField,
    endDate: dateField,
    startTime: timeField.nullable().optional(),
    endTime: timeField.nullable().optional(),
    pump2StartTime: timeField.nullable().optional(),
    pump2EndTime: timeField.nullable().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.endDate < v.startDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: RENTAL_MESSAGES.endBeforeStart });
    if (v.startTime && v.endTime && v.endTime <= v.startTime)
      ctx.addIssue({ code: 'custom', path: ['endTime'], message: RENTAL_MESSAGES.endTimeBeforeStart });
    if (v.pump2StartTime && v.pump2EndTime && v.pump2EndTime <= v.pump2StartTime)
      ctx.addIssue({ code: 'custom', path: ['pump2EndTime'], message: RENTAL_MESSAGES.endTimeBeforeStart });
  });
export type RentalInput = z.infer<typeof rentalSchema>;

export const timezoneUpdateSchema = z.object({
  id: z.coerce.number({ error: REQUIRED }).int().positive(),
  timezone_id: z
    .string({ error: REQUIRED })
    .max(64)
    .refine(
      (tz) => {
        try {
          new Intl.DateTimeFormat('en-US', { timeZone: tz });
          return true;
        } catch {
          return false;
        }
      },
      { error: 'Unknown time zone.' },
    ),
});

export const overviewQuerySchema = z.object({
  location: z.preprocess(
    (v) => (blank(v) ? undefined : toNumber(v)),
    z.number({ error: 'location is a county id.' }).int().positive().optional(),
  ),
});

/**
 * A query's `serials=A,B,C`: trimmed, each once, 1 to 500 (a URL of a few kB). One parser for every call
 * that takes serials in its query (the device list, labels, the field app's devices).
 */
export const serialListQuery = (tooMany = 'At most 500 serials a call.') =>
  z
    .string({ error: 'serials is a comma-separated list of serials.' })
    .transform((text) => [
      ...new Set(
        text
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(z.array(serialSchema).min(1, { error: 'serials is a comma-separated list of serials.' }).max(500, { error: tooMany }));

/** GET /api/v1/device's optional query: only the devices named (at most 500 a call). */
export const deviceListQuerySchema = z.object({ serials: serialListQuery().optional() });

/** GET /api/v1/deviceLabels: exactly one of serials (comma-separated, at most 500), site or brand (ids). */
export const deviceLabelsQuerySchema = z
  .object({
    serials: serialListQuery('At most 500 labels a call.').optional(),
    site: z.coerce
      .number({ error: 'site is a site id.' })
      .int({ error: 'site is a site id.' })
      .positive({ error: 'site is a site id.' })
      .optional(),
    brand: z.coerce
      .number({ error: 'brand is a brand id.' })
      .int({ error: 'brand is a brand id.' })
      .positive({ error: 'brand is a brand id.' })
      .optional(),
  })
  .refine((q) => [q.serials, q.site, q.brand].filter((v) => v !== undefined).length === 1, {
    error: 'Give one of serials, site or brand.',
    path: ['serials'],
  });

/**
 * The statuses a paged list can be narrowed to (issue 46), one per filter list of spec section 2 that
 * narrows (Total, ReportList and ServiceDay show every device, so they send no status). Same rules as
 * the dashboard's FILTER_RULES: low-battery is battery_percent below LOW_BATTERY_PERCENT.
 */
export const DEVICE_PAGE_STATUSES = ['online', 'offline', 'warning', 'maintenance', 'pause', 'low-battery', 'synced'] as const;
export type DevicePageStatus = (typeof DEVICE_PAGE_STATUSES)[number];

const positiveId = (name: string) =>
  z.coerce
    .number({ error: `${name} is a ${name} id.` })
    .int({ error: `${name} is a ${name} id.` })
    .positive({ error: `${name} is a ${name} id.` })
    .optional();

/** The messages of devicePage's 'Add Device To {brand}' filters (also a selection filter's, device-selection.schema.ts). */
export const DEVICE_FILTER_MESSAGES = {
  notBrand: 'notBrand is a brand id.',
  noBrand: 'noBrand is true or left out.',
  address: 'address is at most 500 characters.',
} as const;

/** Between the company names of devicePage's `partner` (a company name with a '|' cannot be asked for). */
export const PARTNER_SEPARATOR = '|';

/**
 * A status report's counts (/status, issue 46): its placed devices, each counted once by connection (online;
 * registering: not online, in registration; offline: neither), and those with a warning, paused, in
 * maintenance, and with a battery below LOW_BATTERY_PERCENT.
 */
export const statusCountsSchema = z.object({
  total: z.number().int(),
  online: z.number().int(),
  registering: z.number().int(),
  offline: z.number().int(),
  warning: z.number().int(),
  paused: z.number().int(),
  maintenance: z.number().int(),
  lowBattery: z.number().int(),
});
export type StatusCountsAnswer = z.infer<typeof statusCountsSchema>;
/** Counts of no device, to add to. */
export const emptyStatusCounts = (): StatusCountsAnswer => ({
  total: 0,
  online: 0,
  registering: 0,
  offline: 0,
  warning: 0,
  paused: 0,
  maintenance: 0,
  lowBattery: 0,
});
/** Adds `more` into `into`, count by count (the sums of a report's sections). */
export function addStatusCounts(into: StatusCountsAnswer, more: StatusCountsAnswer): StatusCountsAnswer {
  for (const key of Object.keys(into) as (keyof StatusCountsAnswer)[]) into[key] += more[key];
  return into;
}
/** GET /api/v1/statusCounts: the caller's counts in all and per county (the site's; null for none). */
export const statusCountsAnswerSchema = z.object({
  counts: statusCountsSchema,
  counties: z.array(z.object({ id: z.number().int().nullable(), counts: statusCountsSchema })),
});
export type StatusCountsByCounty = z.infer<typeof statusCountsAnswerSchema>;

/** GET /api/v1/devicePage's query (issue 46): one page of the caller's placed devices, filtered on the server. */
export const devicePageQuerySchema = z.object({
  /** nextCursor of the previous page; absent for the first page. Opaque to the client. */
  cursor: z.string().max(200, { error: 'cursor is the nextCursor of a previous page.' }).optional(),
  limit: z.coerce
    .number({ error: 'limit is a whole number from 1 to 500.' })
    .int({ error: 'limit is a whole number from 1 to 500.' })
    .min(1, { error: 'limit is a whole number from 1 to 500.' })
    .max(500, { error: 'limit is a whole number from 1 to 500.' })
    .default(100),
  /** Label or serial contains this, ignoring case and white space ('ab 12' finds AB12). */
  q: z.string().max(100, { error: 'q is at most 100 characters.' }).optional(),
  brand: positiveId('brand'),
  /** A county (location_id). */
  county: positiveId('county'),
  /** A site (the device answer's location_group): the device panel's column of the site's devices. */
  site: positiveId('site'),
  /** Devices not of this brand (those that could join it); devices of no brand included. */
  notBrand: z.coerce
    .number({ error: DEVICE_FILTER_MESSAGES.notBrand })
    .int({ error: DEVICE_FILTER_MESSAGES.notBrand })
    .positive({ error: DEVICE_FILTER_MESSAGES.notBrand })
    .optional(),
  /** Devices of no brand ('true' in a query string: the 'Add Device To {brand}' dialog's Brand: No brand). */
  noBrand: z
    .union([z.literal(true), z.literal('true').transform(() => true as const)], { error: DEVICE_FILTER_MESSAGES.noBrand })
    .optional(),
  /** The device's address, exactly (the 'Add Device To {brand}' dialog's Address). */
  address: z.string({ error: DEVICE_FILTER_MESSAGES.address }).max(500, { error: DEVICE_FILTER_MESSAGES.address }).optional(),
  /**
   * Label, serial or address contains this, by q's rule (searchKey). The exclusive-management picker's search:
   * its field says 'Name, serial or address', and a distributor giving a partner a venue's devices types the
   * venue's street, so the address is searched on the server too rather than dropped. A field of its own: q
   * stays the dashboard's 'Name or Serial' and keeps its index; this one also reads each address (no index).
   */
  search: z.string().max(100, { error: 'search is at most 100 characters.' }).optional(),
  /**
   * Market partners' company names (case ignored), several joined by PARTNER_SEPARATOR: a device of any of
   * them matches (the dashboard's Market Partner filter is a multiple choice).
   */
  partner: z
    .string()
    .max(2000, { error: 'partner is at most 2000 characters.' })
    .transform((text) => [...new Set(text.split(PARTNER_SEPARATOR).map((name) => name.trim().toLowerCase()))].filter(Boolean))
    .optional(),
  status: z.enum(DEVICE_PAGE_STATUSES, { error: `status is one of ${DEVICE_PAGE_STATUSES.join(', ')}.` }).optional(),
  /** A batch number (batchNumberKey: case and surrounding spaces ignored): devices either pump of which it feeds (Recall's list). */
  batch: z.string().max(100, { error: 'batch is at most 100 characters.' }).optional(),
});
/** As the server reads it (partner: the lower-cased names); a client sends QueryOf<typeof devicesApi.page>. */
export type DevicePageQuery = z.infer<typeof devicePageQuerySchema>;

const BBOX_ERROR = 'bbox is south,west,north,east in degrees (south <= north, west <= east).';
/** A view's box: south,west,north,east in degrees (a view across the antimeridian asks twice). */
const bboxSchema = z
  .string({ error: BBOX_ERROR })
  .transform((text) => text.split(',').map((n) => (n.trim() === '' ? NaN : Number(n))))
  .pipe(
    z
      .tuple(
        [z.number().min(-90).max(90), z.number().min(-180).max(180), z.number().min(-90).max(90), z.number().min(-180).max(180)],
        {
          error: BBOX_ERROR,
        },
      )
      .refine(([s, w, n, e]) => s <= n && w <= e, { error: BBOX_ERROR }),
  );
/**
 * GET /api/v1/deviceGroup's optional query (issue 46): only the sites in view. Without it the answer is the
 * spec's, every site in scope.
 */
export const deviceGroupQuerySchema = z.object({
  bbox: bboxSchema.optional(),
  county: positiveId('county'),
});
export type DeviceGroupQuery = z.infer<typeof deviceGroupQuerySchema>;
/** GET /api/v1/siteNames' query (issue 46): the map's view, required (the names of every site are deviceGroup's). */
export const siteNamesQuerySchema = z.object({ bbox: bboxSchema });
