import { z } from 'zod';
import { bool, email, requiredText } from './common.ts';
import { daysBetween, dateInputSchema, isCalendarDate } from './telemetry.schema.ts';

/**
 * The report calls of spec section 7: the Email List for Report (email, addEmail, email/{id}, deleteEmail),
 * report tags (reportTag, addReportTag, editReportTag, removeReportTag) and the reports themselves
 * (downloadReport, report, /api/pdf, emailReport). Texts the spec's client shows are spelled as it does.
 */
export const REPORT_MESSAGES = {
  emailAdded: 'EMAIL ADDED',
  emailEdited: 'EMAIL EDITTED',
  emailDeleted: 'EMAIL DELETED',
  emailListEmpty: 'Email List Empty !',
  duplicateEmail: 'This email is already in the list.',
  duplicateTagName: 'please create new name',
  tagDeleted: 'Tag deleted.',
  noDevice: 'Select at least one device.',
  queued: 'queued',
  startAfterEnd: 'The start date must be on or before the end date.',
} as const;

export const REPORT_LIMITS = {
  /** Devices in one report or tag (the whole demo fleet is 40; a big distributor a few hundred). */
  maxDevices: 2000,
  /** Longest range of one report, in days (5 years). */
  maxDays: 1830,
  /** Addresses in one Email List for Report, and in one emailReport call. */
  maxEmails: 50,
  /** Saved tags per user. */
  maxTags: 200,
  nameLength: 100,
} as const;

/** The default name of the unsaved device list (spec section 3, app-wide state). */
export const TEMPORARY_TAG_NAME = 'Temporary Device List';

// ---------------------------------------------------------------- dates and file names

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/**
 * The calendar day a report date input names: a plain date is itself; a date-time is read as the date
 * written in it, in the offset it carries ('2026-11-21T23:59:59-06:00' is 21 November). That is the day the
 * user picked, whatever zone the server or the sites are in; each site then reports that day in its own zone.
 */
export function reportDateOfInput(value: string): string {
  return value.trim().slice(0, 10);
}

/** 'YYYY/MMM/DD' (spec section 7): 2026-11-01 -> '2026/Nov/01'. */
export function reportDateLabel(date: string): string {
  const [y, m, d] = date.split('-');
  return `${y}/${MONTHS[Number(m) - 1]}/${d}`;
}

/**
 * The spec's file name '<start>-<end>.xlsx' (or .pdf) with dates YYYY/MMM/DD: '2026/Nov/01-2026/Nov/21.xlsx'.
 * It contains slashes, which no file system allows: `contentDisposition` sends it as is in RFC 5987
 * `filename*` (a browser saves it with '_' for '/') and the same name with '_' as the plain fallback.
 */
export function reportFileName(startDate: string, endDate: string, ext: 'xlsx' | 'pdf'): string {
  return `${reportDateLabel(startDate)}-${reportDateLabel(endDate)}.${ext}`;
}

/** A name any file system and mail client takes: every character but letters, digits, '.', '_', '-' as '_'. */
export function safeFileName(fileName: string): string {
  return fileName.replace(/[^A-Za-z0-9._-]/g, '_');
}

/** A Content-Disposition value for a report file: attachment, ASCII fallback and RFC 5987 `filename*`. */
export function contentDisposition(fileName: string): string {
  const fallback = safeFileName(fileName);
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

// ---------------------------------------------------------------- Email List for Report

const name = requiredText(REPORT_LIMITS.nameLength);
const object = <T extends z.ZodRawShape>(shape: T, hint: string) =>
  z.object(shape, { error: `Send a JSON object, e.g. ${hint}.` });

/** POST /api/v1/addEmail: the Email Setup form (name and email, both non-empty). */
export const addReportEmailSchema = object({ email: email(), name }, '{"email": "ops@example.com", "name": "Ops"}');
export type AddReportEmailInput = z.infer<typeof addReportEmailSchema>;

/** POST /api/v1/email/{id}: the spec sends { email, is_enable }; name may change too. At least one field. */
export const editReportEmailSchema = object(
  { email: email().optional(), name: name.optional(), is_enable: bool().optional() },
  '{"email": "ops@example.com", "is_enable": false}',
).refine((v) => v.email !== undefined || v.name !== undefined || v.is_enable !== undefined, {
  error: 'Send at least one of email, name, is_enable.',
});
export type EditReportEmailInput = z.infer<typeof editReportEmailSchema>;

/**
 * POST /api/v1/deleteEmail/{id}: the spec's client sends { isEnable: false }. The call deletes the address
 * (the list has its own Enabled switch for turning one off); the body may be left out, and
 * { isEnable: true } is refused rather than guessed at.
 */
export const deleteReportEmailSchema = z.preprocess(
  (v) => v ?? {},
  object(
    { isEnable: z.literal(false, { error: 'isEnable must be false (this call deletes the address).' }).optional() },
    '{"isEnable": false}',
  ),
);

export const reportEmailAnswerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  is_enable: z.boolean(),
  confirmed: z.boolean().describe('Whether the recipient opened its confirmation link: no report reaches it before'),
});
export type ReportEmailAnswer = z.infer<typeof reportEmailAnswerSchema>;

// ---------------------------------------------------------------- report tags

const serial = z
  .string({ error: 'Each serial must be a string.' })
  .trim()
  .min(1, { error: 'A serial may not be blank.' })
  .max(64, { error: 'Unknown serial.' });

/** Serials of a device list: at least one, each once (in the order first given). */
export const deviceSerialsSchema = z
  .array(serial, { error: 'Send the device serials as a list, e.g. ["SP240001"].' })
  .min(1, { error: REPORT_MESSAGES.noDevice })
  .max(REPORT_LIMITS.maxDevices, { error: `At most ${REPORT_LIMITS.maxDevices} devices.` })
  .transform((list) => [...new Set(list)]);

/**
 * The devices of the spec's 'tag plus name' payload: { name, deviceSerials } is the documented form; the
 * client's tag object itself ({ tag: { deviceSerials } } or { tag: { devices: [{ serial }] } }) and a bare
 * list ({ tag: [...] }) are read the same way. Sending both deviceSerials and tag is refused as ambiguous.
 */
function serialsOfTag(tag: unknown): unknown {
  if (Array.isArray(tag))
    return tag.map((d) => (d && typeof d === 'object' && 'serial' in d ? (d as { serial: unknown }).serial : d));
  if (tag && typeof tag === 'object') {
    const t = tag as { deviceSerials?: unknown; devices?: unknown };
    return t.deviceSerials !== undefined ? t.deviceSerials : serialsOfTag(t.devices ?? undefined);
  }
  return tag;
}

const tagObject = { error: 'Send a JSON object, e.g. {"name": "Parks", "deviceSerials": ["SP240001"]}.' };

/** Reads the spec's `tag` into deviceSerials before the object is checked. */
const withTag = <S extends z.ZodType>(schema: S) =>
  z.preprocess((raw, ctx) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw) || !('tag' in raw)) return raw;
    const { tag, ...rest } = raw as Record<string, unknown>;
    if (rest.deviceSerials !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['tag'], message: 'Send the devices once: deviceSerials or tag, not both.' });
      return z.NEVER;
    }
    return { ...rest, deviceSerials: serialsOfTag(tag) };
  }, schema);

/** POST /api/v1/addReportTag: name and devices. */
export const addReportTagSchema = withTag(z.object({ name, deviceSerials: deviceSerialsSchema }, tagObject));
export type AddReportTagInput = z.infer<typeof addReportTagSchema>;

/** POST /api/v1/editReportTag/{id}: a new name, a new device list (replacing the old one), or both. */
export const editReportTagSchema = withTag(
  z
    .object({ name: name.optional(), deviceSerials: deviceSerialsSchema.optional() }, tagObject)
    .refine((v) => v.name !== undefined || v.deviceSerials !== undefined, {
      error: 'Send a new name, new deviceSerials, or both.',
    }),
);
export type EditReportTagInput = z.infer<typeof editReportTagSchema>;

export const reportTagAnswerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  isSavedTag: z.boolean(),
  deviceSerials: z.array(z.string()),
  devices: z.array(z.object({ serial: z.string(), label: z.string() })),
});
export type ReportTagAnswer = z.infer<typeof reportTagAnswerSchema>;

// ---------------------------------------------------------------- reports

const range = (v: { startDate: string; endDate: string }, ctx: z.RefinementCtx) => {
  const start = reportDateOfInput(v.startDate);
  const end = reportDateOfInput(v.endDate);
  // Object checks run even after a field failed: compare only two real dates.
  if (!isCalendarDate(start) || !isCalendarDate(end)) return;
  if (start > end) ctx.addIssue({ code: 'custom', path: ['startDate'], message: REPORT_MESSAGES.startAfterEnd });
  else if (daysBetween(start, end) + 1 > REPORT_LIMITS.maxDays) {
    ctx.addIssue({ code: 'custom', path: ['startDate'], message: `A report may span at most ${REPORT_LIMITS.maxDays} days.` });
  }
};

const reportShape = {
  deviceSerials: deviceSerialsSchema,
  startDate: dateInputSchema.describe("First day: 'YYYY-MM-DD' or ISO 8601 with offset (the date written in it counts)"),
  endDate: dateInputSchema.describe('Last day, included'),
};

/** POST /api/v1/downloadReport and POST /api/v1/report. */
export const reportRequestSchema = z
  .object(reportShape, {
    error:
      'Send a JSON object, e.g. {"deviceSerials": ["SP240001"], "startDate": "2026-11-01T00:00:00-06:00", "endDate": "2026-11-21T23:59:59-06:00"}.',
  })
  .superRefine(range);
export type ReportRequest = z.infer<typeof reportRequestSchema>;

/**
 * POST /api/v1/emailReport: the report range and devices, and the addresses to mail. An empty list answers
 * 400 { emails: ['Email List Empty !'] }. requestId (or the Idempotency-Key header) names the send: the same
 * id again sends nothing more.
 */
export const emailReportSchema = z
  .object(
    {
      ...reportShape,
      emails: z
        .array(email(), { error: 'Send the addresses as a list.' })
        .min(1, { error: REPORT_MESSAGES.emailListEmpty })
        .max(REPORT_LIMITS.maxEmails, { error: `At most ${REPORT_LIMITS.maxEmails} addresses.` })
        .transform((list) => [...new Set(list)]),
      requestId: z
        .string({ error: 'Must be a string.' })
        .trim()
        .min(1)
        .max(100, { error: 'Ensure this field has no more than 100 characters.' })
        .optional(),
    },
    { error: 'Send a JSON object with deviceSerials, startDate, endDate and emails.' },
  )
  .superRefine(range);
export type EmailReportInput = z.infer<typeof emailReportSchema>;

const count = z.number().int().min(0);
const flOz = z.number().min(0);
const label = (max = 200) => z.string().max(max);

/** Dispenses per pump (1 left, 2 right) and per fluid, and fl.oz. used: a device's, or the totals. */
const dispensedShape = {
  left_dispensed: count,
  right_dispensed: count,
  sunscreen_dispensed: count,
  sanitizer_dispensed: count,
  sunscreen_fl_oz: flOz,
  sanitizer_fl_oz: flOz,
};

/** One device of a report: what it dispensed over the range, per pump and per fluid. */
export const reportDeviceSchema = z.object({
  serial: label(64),
  name: label().describe('Site/event name (the device label)'),
  brand: label().nullable(),
  county: label().nullable(),
  address: label(500),
  time_zone: label(64).describe('The site zone the range was cut in'),
  left_pump_type: label(20),
  right_pump_type: label(20),
  ...dispensedShape,
  battery_percent: z.number().min(0).max(100).nullable().describe('Last battery reading at or before the end of the range'),
  warnings: z.array(label(40)).max(20).describe('Current warnings'),
});
export type ReportDevice = z.infer<typeof reportDeviceSchema>;

const totalsSchema = z.object(dispensedShape);

const calendarDay = z.string().refine(isCalendarDate, { error: 'Enter a valid date (YYYY-MM-DD).' });

/** The answer of POST /api/v1/report, and the body POST /api/pdf renders. */
export const reportAnswerSchema = z.object(
  {
    title: label(),
    start_date: calendarDay,
    end_date: calendarDay,
    days: z.number().int().min(1).max(REPORT_LIMITS.maxDays),
    range_label: label().describe("'YYYY/MMM/DD - YYYY/MMM/DD'"),
    generated_at: label(40),
    counts: z.object({ devices: count, brands: count, counties: count }),
    devices: z.array(reportDeviceSchema).max(REPORT_LIMITS.maxDevices),
    totals: totalsSchema,
  },
  { error: 'Send the report data answered by POST /api/v1/report.' },
);
export type ReportAnswer = z.infer<typeof reportAnswerSchema>;

export const emailReportAnswerSchema = z.object({
  detail: z.literal(REPORT_MESSAGES.queued),
  jobId: z.string().describe('Names this send: the same request id gives the same jobId and sends nothing more'),
  requestId: z.string(),
  jobs: z.array(z.object({ email: z.string(), jobId: z.string() })),
  unconfirmed: z
    .array(z.string())
    .describe('Addresses skipped because they have not confirmed yet (each is asked again, at most once a day)'),
});
export type EmailReportAnswer = z.infer<typeof emailReportAnswerSchema>;
