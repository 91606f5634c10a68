import { z } from 'zod';

/**
 * Crews and service plans (issue 48): the calls' bodies and answers, one declaration for the server's
 * validation, the OpenAPI document and the client.
 */
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

const coordinate = (name: string, min: number, max: number) =>
  z
    .number({ error: `The depot needs its ${name} (the depot's coordinates).` })
    .min(min, `${name} must be between ${min} and ${max}.`)
    .max(max, `${name} must be between ${min} and ${max}.`);

export const crewInputSchema = z
  .object({
    name: z.string().trim().min(1, 'Required').max(100),
    email: z.email('Enter a valid email address.'),
    phone: z.string().trim().max(40).default(''),
    depot: z.object(
      {
        address: z.string().trim().min(1, 'The depot needs an address.').max(300),
        lat: coordinate('latitude', -90, 90),
        lng: coordinate('longitude', -180, 180),
      },
      { error: 'The depot needs an address and coordinates (lat, lng).' },
    ),
    startTime: z.string().regex(HHMM, 'Use HH:mm, e.g. 08:00.'),
    endTime: z.string().regex(HHMM, 'Use HH:mm, e.g. 17:00.'),
    capacityLitres: z.number({ error: 'Required' }).min(0, 'Capacity cannot be negative.').max(100_000),
    capacityBatteries: z
      .number({ error: 'Required' })
      .int('Whole batteries only.')
      .min(0, 'Capacity cannot be negative.')
      .max(10_000),
  })
  .refine((c) => !HHMM.test(c.startTime) || !HHMM.test(c.endTime) || minutesOf(c.endTime) > minutesOf(c.startTime), {
    path: ['endTime'],
    message: 'Working hours must end after they start.',
  });
export type CrewInput = z.input<typeof crewInputSchema>;

export const crewSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  depot: z.object({ address: z.string(), lat: z.number(), lng: z.number() }),
  /** The depot's IANA zone (from its coordinates): working hours are read in it. */
  timeZone: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  capacityLitres: z.number(),
  capacityBatteries: z.number(),
});
export type Crew = z.infer<typeof crewSchema>;

export const servicePlanRequestSchema = z.object({
  date: z.iso.date('Use a date YYYY-MM-DD.'),
  crewIds: z.array(z.number().int().positive()).max(100, 'At most 100 crews a plan.'),
});

export const servicePlansQuerySchema = z.object({ date: z.iso.date('Use a date YYYY-MM-DD.') });

export const SERVICE_PLAN_STATUSES = ['draft', 'published', 'in_progress', 'done', 'superseded'] as const;
export type ServicePlanStatus = (typeof SERVICE_PLAN_STATUSES)[number];
export const SERVICE_PLAN_STATUS_LABEL: Record<ServicePlanStatus, string> = {
  draft: 'Draft',
  published: 'Published',
  in_progress: 'In progress',
  done: 'Done',
  superseded: 'Replaced by a newer version',
};

const fluid = z.enum(['Sunscreen', 'Sanitizer']);
const site = z.object({
  id: z.number(),
  name: z.string(),
  address: z.string(),
  lat: z.number(),
  lng: z.number(),
  timeZone: z.string(),
});
const plannedDevice = z.object({
  serial: z.string(),
  reasons: z.array(z.string()),
  topUp: z.boolean(),
  refill: z.array(
    z.object({
      pump: z.union([z.literal(1), z.literal(2)]),
      fluid,
      litres: z.number(),
      batchNumber: z.string().nullable(),
      replacesBatch: z.boolean(),
    }),
  ),
  battery: z.literal('swap').nullable(),
  fix: z.array(z.string()),
  /** A maintenance record of this device since the plan was published. */
  serviced: z.boolean(),
});
const shortage = z.object({ brand: z.string(), fluid, litres: z.number(), text: z.string() });
export const crewPlanSchema = z.object({
  crew: z.object({ id: z.number(), name: z.string(), timeZone: z.string(), startTime: z.string(), endTime: z.string() }),
  stops: z.array(
    z.object({
      order: z.number(),
      site,
      eta: z.string(),
      driveMinutes: z.number(),
      devices: z.array(plannedDevice),
      done: z.boolean(),
    }),
  ),
  pickList: z.object({
    batches: z.array(z.object({ batchNumber: z.string(), brand: z.string(), fluid, litres: z.number() })),
    litres: z.number(),
    batteries: z.number(),
    shortages: z.array(shortage),
    warningsToFix: z.array(z.object({ serial: z.string(), text: z.string() })),
  }),
  totals: z.object({
    stops: z.number(),
    devices: z.number(),
    km: z.number(),
    drivingMinutes: z.number(),
    serviceMinutes: z.number(),
    start: z.string(),
    returnAt: z.string(),
  }),
});
export const servicePlanSchema = z.object({
  id: z.number(),
  date: z.string(),
  version: z.number(),
  status: z.enum(SERVICE_PLAN_STATUSES),
  createdAt: z.string(),
  publishedAt: z.string().nullable(),
  crews: z.array(crewPlanSchema),
  unplanned: z.array(
    z.object({
      serial: z.string(),
      site: z.object({ id: z.number(), name: z.string() }),
      reasons: z.array(z.string()),
      why: z.string(),
    }),
  ),
  shortages: z.array(shortage),
  note: z.string().nullable(),
  travelSource: z.string(),
  progress: z.object({ stops: z.number(), done: z.number() }),
});
export type ServicePlan = z.infer<typeof servicePlanSchema>;
export type CrewPlanAnswer = z.infer<typeof crewPlanSchema>;
