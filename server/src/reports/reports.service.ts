import crypto from 'node:crypto';
import {
  addDays,
  addReportEmailSchema,
  addReportTagSchema,
  daysBetween,
  listCounts,
  deleteReportEmailSchema,
  editReportEmailSchema,
  editReportTagSchema,
  type EmailReportAnswer,
  emailReportSchema,
  mlToFlOz,
  pluralWord,
  REPORT_LIMITS,
  REPORT_MESSAGES,
  type ReportAnswer,
  reportDateLabel,
  reportDateOfInput,
  type ReportDevice,
  type ReportEmailAnswer,
  type ReportTagAnswer,
  roundVolume,
  siteTimeZone,
  zonedTimeToInstant,
} from '@fleet/shared';
import { jobIdOf, type JobName, type JobQueue, type ReportEmailPayload } from '@fleet/workers';
import { deviceScope, type ScopeViewer } from '../access/scope.ts';
import { ApiError, isUniqueViolation, parse } from '../lib/errors.ts';
import type { Quota } from '../auth/index.ts';
import { keyHash, randomKey } from '../lib/crypto.ts';
import type { DeviceRange } from '../telemetry/index.ts';
import type { ReportDeviceRow, ReportEmailRow, ReportsRepository } from './reports.repository.ts';

/** The telemetry reads a report needs (server/src/telemetry/telemetry.repository.ts). */
export type ReportTelemetry = {
  pumpTotals(ranges: DeviceRange[]): Promise<{ device_id: number; pump: number; n: number; ml: number }[]>;
  batteryBefore(ranges: Pick<DeviceRange, 'deviceId' | 'to'>[]): Promise<{ device_id: number; percent: number | null }[]>;
};

export type ReportsServiceDeps = {
  repo: ReportsRepository;
  telemetry: ReportTelemetry;
  queue: Pick<JobQueue<JobName>, 'enqueue'>;
  now: () => Date;
  /** Report mails per user (30 an hour in the app, auth/limits.ts); unlimited without it. */
  reportMails?: Pick<Quota, 'take'>;
  /** Key of the confirmation tokens' HMAC, and the portal's address for their links. */
  secretKey?: string;
  publicUrl?: string;
};

/** Where a confirmation link points (GET, public: the token is the only credential, single-purpose). */
export const CONFIRM_PATH = '/api/v1/confirmReportEmail';

/** A report's devices and calendar days, already validated. */
export type ReportQuery = { deviceSerials: string[]; startDate: string; endDate: string };

const EMAIL_NOT_FOUND = 'No report email with this id.';
const TAG_NOT_FOUND = 'No report tag with this id.';
const MAX_ID = 2_147_483_647;

/**
 * The report calls of spec section 7: the caller's Email List for Report and saved tags (each user sees and
 * edits only its own), and reports over devices of the caller's scope. A serial outside the scope answers
 * the same 400 as an unknown one, so a report never tells whether someone else's device exists.
 */
export function reportsService(deps: ReportsServiceDeps) {
  const { repo } = deps;
  const builder = reportBuilder(deps);
  const devicesOf = builder.devicesOf;

  async function tagAnswers(viewer: ScopeViewer, ownerId: number, id?: number): Promise<ReportTagAnswer[]> {
    const tags = await repo.tags(ownerId, id);
    const devices = await repo.tagDevices(
      tags.map((t) => t.id),
      deviceScope(viewer),
    );
    return tags.map((t) => {
      const own = devices.filter((d) => d.tagId === t.id);
      return {
        id: t.id,
        name: t.name,
        isSavedTag: t.isSavedTag,
        deviceSerials: own.map((d) => d.serial),
        devices: own.map((d) => ({ serial: d.serial, label: d.label })),
      };
    });
  }

  async function guardTagName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw ApiError.field('name', REPORT_MESSAGES.duplicateTagName);
      throw err;
    }
  }

  const tokenHash = (token: string) => keyHash(deps.secretKey ?? 'report-confirmation', `report-recipient:${token}`);

  /**
   * Sends a recipient its confirmation mail through the outbox, unless its address already had one in the
   * last 24 hours (whoever asked): answers whether a mail went. Each mail carries a new single-purpose token;
   * the one before stops working.
   */
  async function sendConfirmation(row: ReportEmailRow): Promise<boolean> {
    if (!(await repo.claimConfirmationMail(row.email, deps.now()))) return false;
    const token = randomKey(24);
    await repo.updateEmail(row.ownerId, row.id, { confirmTokenHash: tokenHash(token) });
    const confirmUrl = `${deps.publicUrl ?? ''}${CONFIRM_PATH}/${token}`;
    await deps.queue.enqueue(
      'report-recipient-confirmation',
      { to: row.email, name: row.name, requestedBy: await repo.ownerLabel(row.ownerId), confirmUrl },
      { idempotencyKey: `report-recipient-confirmation:${row.id}:${tokenHash(token).slice(0, 16)}` },
    );
    return true;
  }

  const service = {
    // ------------------------------------------------------------ Email List for Report

    /** GET /email: the caller's list, oldest first. */
    async emails(viewer: ScopeViewer): Promise<ReportEmailAnswer[]> {
      return (await repo.emails(viewer.id)).map(toEmailAnswer);
    },

    /** POST /addEmail: an address once per list (ignoring case), at most 50. */
    async addEmail(viewer: ScopeViewer, body: unknown): Promise<ReportEmailAnswer> {
      const input = parse(addReportEmailSchema, body ?? {});
      return repo
        .transaction(async (tx) => {
          await tx.lockOwner(viewer.id);
          if (await tx.emailTaken(viewer.id, input.email)) throw ApiError.field('email', REPORT_MESSAGES.duplicateEmail);
          if ((await tx.emails(viewer.id)).length >= REPORT_LIMITS.maxEmails) {
            throw ApiError.badRequest(`The Email List for Report holds at most ${REPORT_LIMITS.maxEmails} addresses.`);
          }
          return tx.insertEmail({ ownerId: viewer.id, name: input.name, email: input.email, isEnable: true });
        })
        .then(async (row) => {
          // A new recipient is asked first: no report reaches it before it confirms.
          await sendConfirmation(row);
          return toEmailAnswer(row);
        });
    },

    /** POST /email/{id}: change the address, the name or the Enabled switch. */
    async editEmail(viewer: ScopeViewer, idParam: unknown, body: unknown): Promise<ReportEmailAnswer> {
      const id = parseId(idParam, 'Report email', EMAIL_NOT_FOUND);
      return repo
        .transaction(async (tx) => {
          await tx.lockOwner(viewer.id);
          // Another user's id answers 404 whatever the body (ownership before validation).
          if (!(await tx.emailById(viewer.id, id))) throw ApiError.notFound(EMAIL_NOT_FOUND);
          const input = parse(editReportEmailSchema, body ?? {});
          if (input.email !== undefined && (await tx.emailTaken(viewer.id, input.email, id)))
            throw ApiError.field('email', REPORT_MESSAGES.duplicateEmail);
          const before = (await tx.emailById(viewer.id, id))!;
          // Another address is another recipient: it confirms before any report reaches it.
          const moved = input.email !== undefined && input.email.toLowerCase() !== before.email.toLowerCase();
          const row = await tx.updateEmail(viewer.id, id, {
            email: input.email,
            name: input.name,
            isEnable: input.is_enable,
            ...(moved ? { confirmedAt: null, confirmTokenHash: null } : {}),
          });
          return { row: row!, moved };
        })
        .then(async ({ row, moved }) => {
          if (moved) await sendConfirmation(row);
          return toEmailAnswer(row);
        });
    },

    /** GET /confirmReportEmail/{token}: the link of a confirmation mail. Answers who confirmed what, or undefined for a token not (or no longer) valid. */
    async confirmRecipient(token: string): Promise<{ email: string; owner: string } | undefined> {
      if (!/^[0-9a-f]{48}$/.test(token)) return undefined;
      const row = await repo.confirmByTokenHash(tokenHash(token), deps.now());
      return row && { email: row.email, owner: await repo.ownerLabel(row.ownerId) };
    },

    /** POST /deleteEmail/{id}: deletes the address (the body { isEnable: false } is what the spec's client sends). */
    async removeEmail(viewer: ScopeViewer, idParam: unknown, body: unknown): Promise<{ detail: string }> {
      const id = parseId(idParam, 'Report email', EMAIL_NOT_FOUND);
      parse(deleteReportEmailSchema, body);
      if (!(await repo.removeEmail(viewer.id, id))) throw ApiError.notFound(EMAIL_NOT_FOUND);
      return { detail: REPORT_MESSAGES.emailDeleted };
    },

    // ------------------------------------------------------------ report tags

    /** GET /reportTag: the caller's saved tags by name, each with its devices in the caller's scope. */
    tags(viewer: ScopeViewer): Promise<ReportTagAnswer[]> {
      return tagAnswers(viewer, viewer.id);
    },

    /** POST /addReportTag: a name not used by another of the caller's tags (ignoring case), and its devices. */
    async addTag(viewer: ScopeViewer, body: unknown): Promise<ReportTagAnswer> {
      const input = parse(addReportTagSchema, body ?? {});
      const id = await guardTagName(() =>
        repo.transaction(async (tx) => {
          await tx.lockOwner(viewer.id);
          if (await tx.tagNameTaken(viewer.id, input.name)) throw ApiError.field('name', REPORT_MESSAGES.duplicateTagName);
          if ((await tx.tags(viewer.id)).length >= REPORT_LIMITS.maxTags)
            throw ApiError.badRequest(`At most ${REPORT_LIMITS.maxTags} saved tags.`);
          const devices = await devicesOf(viewer, input.deviceSerials, tx);
          const tag = await tx.insertTag({ ownerId: viewer.id, name: input.name, isSavedTag: true });
          await tx.setTagDevices(
            tag.id,
            devices.map((d) => d.id),
          );
          return tag.id;
        }),
      );
      return (await tagAnswers(viewer, viewer.id, id))[0]!;
    },

    /**
     * POST /editReportTag/{id}: a new name and/or a new device list. The new list replaces the devices the
     * caller can see; devices of the tag now outside the caller's scope are kept (not the caller's to drop).
     */
    async editTag(viewer: ScopeViewer, idParam: unknown, body: unknown): Promise<ReportTagAnswer> {
      const id = parseId(idParam, 'Report tag', TAG_NOT_FOUND);
      await guardTagName(() =>
        repo.transaction(async (tx) => {
          await tx.lockOwner(viewer.id);
          // Another user's id answers 404 whatever the body (ownership before validation).
          if (!(await tx.tags(viewer.id, id)).length) throw ApiError.notFound(TAG_NOT_FOUND);
          const input = parse(editReportTagSchema, body ?? {});
          if (input.name !== undefined) {
            if (await tx.tagNameTaken(viewer.id, input.name, id)) throw ApiError.field('name', REPORT_MESSAGES.duplicateTagName);
            await tx.renameTag(viewer.id, id, input.name);
          }
          if (input.deviceSerials !== undefined) {
            const visible = await devicesOf(viewer, input.deviceSerials, tx);
            const seen = new Set((await tx.tagDevices([id], deviceScope(viewer))).map((d) => d.deviceId));
            const outOfScope = (await tx.tagDevices([id], undefined)).filter((d) => !seen.has(d.deviceId));
            await tx.setTagDevices(id, [...visible.map((d) => d.id), ...outOfScope.map((d) => d.deviceId)]);
          }
        }),
      );
      return (await tagAnswers(viewer, viewer.id, id))[0]!;
    },

    /** POST /removeReportTag/{id}: deletes the tag (never its devices). */
    async removeTag(viewer: ScopeViewer, idParam: unknown): Promise<{ detail: string }> {
      const id = parseId(idParam, 'Report tag', TAG_NOT_FOUND);
      if (!(await repo.removeTag(viewer.id, id))) throw ApiError.notFound(TAG_NOT_FOUND);
      return { detail: REPORT_MESSAGES.tagDeleted };
    },

    // ------------------------------------------------------------ reports

    build: builder.build,

    /**
     * POST /emailReport: one 'report-email' job per address, each keyed by the request (caller, range, devices,
     * addresses, request id) and the address, so a retried job, a second worker or the same request sent again
     * mails nobody twice. The jobs carry the request key: the first to run builds the report, the others attach
     * the stored files (server/src/reports/report-file-store.ts). Addresses must be enabled entries of the caller's Email List for Report: the portal
     * does not mail reports to arbitrary addresses. The request id is the body's requestId, else the
     * Idempotency-Key header, else a new one (then every call is a new send).
     */
    async emailReport(viewer: ScopeViewer, body: unknown, idempotencyKey?: string): Promise<EmailReportAnswer> {
      const input = parse(emailReportSchema, body ?? {});
      await devicesOf(viewer, input.deviceSerials);
      const list = new Map((await repo.emails(viewer.id)).filter((e) => e.isEnable).map((e) => [e.email.toLowerCase(), e]));
      const strangers = input.emails.filter((e) => !list.has(e));
      if (strangers.length)
        throw ApiError.field('emails', `Not an enabled address of your Email List for Report: ${strangers.join(', ')}.`);
      // Recipients that have not confirmed are skipped (and asked again, at most once a day per address).
      const unconfirmed = input.emails.filter((e) => !list.get(e)!.confirmedAt);
      const recipients = input.emails.filter((e) => list.get(e)!.confirmedAt);
      for (const e of unconfirmed) await sendConfirmation(list.get(e)!);
      if (!recipients.length) {
        throw ApiError.field(
          'emails',
          `No report sent: ${unconfirmed.join(', ')} ${unconfirmed.length === 1 ? 'has' : 'have'} not confirmed yet. A confirmation mail goes to each new address (at most one a day); reports follow once it is confirmed.`,
        );
      }
      await deps.reportMails?.take(`user:${viewer.id}`, recipients.length);
      const requestId = input.requestId ?? idempotencyKey?.trim().slice(0, 100) ?? crypto.randomUUID();
      const startDate = reportDateOfInput(input.startDate);
      const endDate = reportDateOfInput(input.endDate);
      const requestKey = reportRequestKey({
        userId: viewer.id,
        startDate,
        endDate,
        deviceSerials: input.deviceSerials,
        emails: recipients,
        requestId,
      });
      const jobs: EmailReportAnswer['jobs'] = [];
      try {
        for (const to of recipients) {
          const key = `report-email:${requestKey}:${to}`;
          const payload: ReportEmailPayload = {
            to,
            name: list.get(to)!.name,
            requestedBy: viewer.id,
            deviceSerials: input.deviceSerials,
            startDate,
            endDate,
            requestKey,
          };
          await deps.queue.enqueue('report-email', payload, { idempotencyKey: key });
          jobs.push({ email: to, jobId: jobIdOf(key) });
        }
      } catch (err) {
        // The mails already queued keep their keys: sending the same request id again queues only the rest.
        throw new ApiError(503, {
          detail: `The report mail could not be queued (${(err as Error).message}); send again with requestId "${requestId}".`,
        });
      }
      return { detail: REPORT_MESSAGES.queued, jobId: requestKey, requestId, jobs, unconfirmed };
    },
  };
  return service;
}

/** Builds reports: the part of the service the report mail jobs use too (server/src/reports/report-mail.ts). */
export function reportBuilder(deps: Pick<ReportsServiceDeps, 'repo' | 'telemetry' | 'now'>) {
  const { repo } = deps;

  /** The devices of these serials in the caller's scope; 400 naming every serial that is not. */
  async function devicesOf(viewer: ScopeViewer, serials: string[], r: ReportsRepository = repo): Promise<ReportDeviceRow[]> {
    const found = await r.devicesBySerials(serials, deviceScope(viewer));
    const known = new Set(found.map((d) => d.serial));
    const unknown = serials.filter((s) => !known.has(s));
    if (unknown.length) throw ApiError.field('deviceSerials', unknownDevicesMessage(unknown));
    return found;
  }

  /**
   * The report of POST /report (and the files of /downloadReport and the mails): per device, the calendar
   * days startDate..endDate cut in its site's zone (UTC for a device on no site or a site without one):
   * dispenses per pump and per fluid, fluid used in fl.oz. (ml / 1000 litres / 0.0295735), the last battery
   * reading before the range ends and the current warnings; totals and the counts of devices, brands and
   * counties. Rows sorted by county, name, serial.
   */
  async function build(viewer: ScopeViewer, query: ReportQuery): Promise<ReportAnswer> {
    const start = reportDateOfInput(query.startDate);
    const end = reportDateOfInput(query.endDate);
    return reportOf(await devicesOf(viewer, query.deviceSerials), start, end);
  }

  /** The report of these devices (already checked against the caller's scope) over the days start..end. */
  async function reportOf(found: ReportDeviceRow[], start: string, end: string): Promise<ReportAnswer> {
    const ranges = found.map((d) => {
      const tz = siteTimeZone(d.timezoneId);
      return { deviceId: d.id, from: zonedTimeToInstant(start, tz), to: zonedTimeToInstant(addDays(end, 1), tz) };
    });
    const [pumps, battery] = await Promise.all([deps.telemetry.pumpTotals(ranges), deps.telemetry.batteryBefore(ranges)]);
    const pumpsOf = new Map<number, typeof pumps>();
    for (const p of pumps) pumpsOf.set(p.device_id, [...(pumpsOf.get(p.device_id) ?? []), p]);
    const batteryOf = new Map(battery.map((b) => [b.device_id, b.percent]));
    const devices = found.map((d) => reportRow(d, pumpsOf.get(d.id) ?? [], batteryOf.get(d.id) ?? null));
    const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
    devices.sort(
      (a, b) =>
        collator.compare(a.county ?? '\uffff', b.county ?? '\uffff') ||
        collator.compare(a.name, b.name) ||
        collator.compare(a.serial, b.serial),
    );
    return {
      title: 'Dispensing Report',
      start_date: start,
      end_date: end,
      days: daysBetween(start, end) + 1,
      range_label: `${reportDateLabel(start)} - ${reportDateLabel(end)}`,
      generated_at: deps.now().toISOString(),
      counts: listCounts(found.map((d) => ({ brand: d.brandId, county: d.locationId }))),
      devices,
      totals: totalsOf(devices),
    };
  }

  return { devicesOf, build, reportOf };
}

// ---------------------------------------------------------------- pure parts

/** A path id: 400 when it is not a whole number, 404 when it cannot name a row. */
export function parseId(raw: unknown, what: string, notFound: string): number {
  if (typeof raw !== 'string' || !/^\d{1,12}$/.test(raw))
    throw ApiError.badRequest(`${what} id must be a positive whole number.`);
  const id = Number(raw);
  if (id < 1 || id > MAX_ID) throw ApiError.notFound(notFound);
  return id;
}

export function unknownDevicesMessage(serials: string[]): string {
  const shown = serials.slice(0, 10).join(', ');
  const more = serials.length > 10 ? ` and ${serials.length - 10} more` : '';
  return `Unknown ${pluralWord(serials.length, 'device')}: ${shown}${more}.`;
}

export function toEmailAnswer(row: ReportEmailRow): ReportEmailAnswer {
  return { id: row.id, name: row.name, email: row.email, is_enable: row.isEnable, confirmed: row.confirmedAt !== null };
}

/** The key of one emailReport request: the same inputs and request id always give the same key. */
export function reportRequestKey(r: {
  userId: number;
  startDate: string;
  endDate: string;
  deviceSerials: string[];
  emails: string[];
  requestId: string;
}): string {
  const canonical = JSON.stringify([
    r.userId,
    r.startDate,
    r.endDate,
    [...r.deviceSerials].sort(),
    [...r.emails].sort(),
    r.requestId,
  ]);
  return crypto.createHash('sha256').update(canonical).digest('hex').slice(0, 32);
}

const flOz2 = (ml: number) => roundVolume(mlToFlOz(ml), 2);

/** One device's row from its per-pump totals (pump 1 left, 2 right); fluid follows each pump's type. */
export function reportRow(
  d: ReportDeviceRow,
  pumps: { pump: number; n: number; ml: number }[],
  batteryPercent: number | null,
): ReportDevice {
  const of = (pump: number) =>
    pumps
      .filter((p) => p.pump === pump)
      .reduce((acc, p) => ({ n: acc.n + Number(p.n), ml: acc.ml + Number(p.ml) }), { n: 0, ml: 0 });
  const left = of(1);
  const right = of(2);
  const fluid = (type: string) =>
    [left, right]
      .filter((_, i) => (i === 0 ? d.leftPumpType : d.rightPumpType) === type)
      .reduce((a, p) => ({ n: a.n + p.n, ml: a.ml + p.ml }), { n: 0, ml: 0 });
  const sunscreen = fluid('Sunscreen');
  const sanitizer = fluid('Sanitizer');
  return {
    serial: d.serial,
    name: d.label.trim() || d.siteName?.trim() || 'NoName',
    brand: d.brandName,
    county: d.county,
    address: d.address,
    time_zone: siteTimeZone(d.timezoneId),
    left_pump_type: d.leftPumpType,
    right_pump_type: d.rightPumpType,
    left_dispensed: left.n,
    right_dispensed: right.n,
    sunscreen_dispensed: sunscreen.n,
    sanitizer_dispensed: sanitizer.n,
    sunscreen_fl_oz: flOz2(sunscreen.ml),
    sanitizer_fl_oz: flOz2(sanitizer.ml),
    battery_percent: batteryPercent == null ? null : roundVolume(Number(batteryPercent), 1),
    warnings: [...(d.warningLists ?? [])],
  };
}

/** Totals of the rows as shown (fl.oz. sums of the rounded rows, so the column adds up in a spreadsheet). */
export function totalsOf(rows: ReportDevice[]): ReportAnswer['totals'] {
  const sum = (f: (r: ReportDevice) => number) => rows.reduce((n, r) => n + f(r), 0);
  return {
    left_dispensed: sum((r) => r.left_dispensed),
    right_dispensed: sum((r) => r.right_dispensed),
    sunscreen_dispensed: sum((r) => r.sunscreen_dispensed),
    sanitizer_dispensed: sum((r) => r.sanitizer_dispensed),
    sunscreen_fl_oz: roundVolume(
      sum((r) => r.sunscreen_fl_oz),
      2,
    ),
    sanitizer_fl_oz: roundVolume(
      sum((r) => r.sanitizer_fl_oz),
      2,
    ),
  };
}
