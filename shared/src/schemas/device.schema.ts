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
