import express, { Router, type Response } from 'express';
import { z } from 'zod';
import {
  addReportEmailSchema,
  addReportTagSchema,
  contentDisposition,
  deleteReportEmailSchema,
  editReportEmailSchema,
  editReportTagSchema,
  emailReportAnswerSchema,
  emailReportSchema,
  REPORT_LIMITS,
  REPORT_MESSAGES,
  reportAnswerSchema,
  reportEmailAnswerSchema,
  reportFileName,
  reportRequestSchema,
  reportTagAnswerSchema,
} from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import { parse } from '../lib/errors.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
import { telemetryRepository } from '../telemetry/index.ts';
import { reportPdf, reportXlsx, XLSX_TYPE } from './report-files.ts';
import { reportsRepository } from './reports.repository.ts';
import { CONFIRM_PATH, reportsService } from './reports.service.ts';

/** Report data for the PDF can be larger than the portal's 100 kB JSON limit (2,000 devices). */
const PDF_BODY_LIMIT = '2mb';

/** The report calls of spec section 7 (Email List for Report, tags, reports), and the same-origin POST /api/pdf. */
export function reportsRoutes(ctx: AppContext): Routes {
  const service = reportsService({
    repo: reportsRepository(ctx.db),
    telemetry: telemetryRepository(ctx.db),
    queue: ctx.queue,
    now: ctx.now,
    ...(ctx.reportMails ? { reportMails: ctx.reportMails } : {}),
    secretKey: ctx.config.secretKey,
    publicUrl: ctx.config.publicUrl,
  });
  const router = Router();
  const file = (res: Response, name: string, type: string, content: Buffer) => {
    res
      .set({
        'Cache-Control': 'no-store',
        'Content-Type': type,
        'Content-Disposition': contentDisposition(name),
        'Content-Length': String(content.length),
      })
      .send(content);
  };

  router.get('/email', async (req, res) => void res.json(await service.emails(viewerOf(req))));
  router.post('/addEmail', async (req, res) => void res.status(201).json(await service.addEmail(viewerOf(req), req.body)));
  router.post('/email/:id', async (req, res) => void res.json(await service.editEmail(viewerOf(req), req.params.id, req.body)));
  router.post(
    '/deleteEmail/:id',
    async (req, res) => void res.json(await service.removeEmail(viewerOf(req), req.params.id, req.body)),
  );

  router.get('/reportTag', async (req, res) => void res.json(await service.tags(viewerOf(req))));
  router.post('/addReportTag', async (req, res) => void res.status(201).json(await service.addTag(viewerOf(req), req.body)));
  router.post(
    '/editReportTag/:id',
    async (req, res) => void res.json(await service.editTag(viewerOf(req), req.params.id, req.body)),
  );
  router.post('/removeReportTag/:id', async (req, res) => void res.json(await service.removeTag(viewerOf(req), req.params.id)));

  router.post(
    '/report',
    async (req, res) => void res.json(await service.build(viewerOf(req), parse(reportRequestSchema, req.body ?? {}))),
  );
  router.post('/downloadReport', async (req, res) => {
    const report = await service.build(viewerOf(req), parse(reportRequestSchema, req.body ?? {}));
    file(res, reportFileName(report.start_date, report.end_date, 'xlsx'), XLSX_TYPE, await reportXlsx(report));
  });
  router.post(
    '/emailReport',
    async (req, res) => void res.status(202).json(await service.emailReport(viewerOf(req), req.body, req.get('idempotency-key'))),
  );

  // POST /api/pdf (outside /api/v1, as the spec's client calls it): renders report data it is given.
  const pdf = Router();
  pdf.use(express.json({ limit: PDF_BODY_LIMIT }));
  pdf.post('/', async (req, res) => {
    viewerOf(req);
    const report = parse(reportAnswerSchema, req.body ?? {});
    file(res, reportFileName(report.start_date, report.end_date, 'pdf'), 'application/pdf', await reportPdf(report));
  });

  const tag = 'Reports';
  const detail = z.object({ detail: z.string() });
  const own = "Each user has its own list: another user's id answers 404.";
  const emailNotFound = { description: "No report email with this id in the caller's list", schema: detail };
  const tagNotFound = { description: "No report tag with this id among the caller's tags", schema: detail };
  const serials = `Every serial must be a device of the caller's scope: otherwise 400 {"deviceSerials": ["Unknown device: ..."]} (the same for a serial that does not exist). At most ${REPORT_LIMITS.maxDevices} devices.`;
  const range =
    "startDate and endDate are the first and last calendar day ('YYYY-MM-DD', or ISO 8601 with offset: the date written in it counts); each site reports those days in its own time zone. endDate before startDate: 400.";
  const fileNote =
    "Content-Disposition carries the spec's name '<start>-<end>' with dates YYYY/MMM/DD in RFC 5987 filename* (slashes percent-encoded), and the same name with '_' for '/' as the plain filename.";
  const docs: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/email',
      tag,
      summary: "Email List for Report: the caller's addresses, oldest first",
      responses: { 200: { description: 'Addresses', schema: z.array(reportEmailAnswerSchema) } },
    },
    {
      method: 'post',
      path: '/api/v1/addEmail',
      tag,
      summary: 'Add an address to the Email List for Report (enabled)',
      description: `Name and email required. An address already in the list (ignoring case): 400 {"email": ["${REPORT_MESSAGES.duplicateEmail}"]}. At most ${REPORT_LIMITS.maxEmails} addresses.`,
      body: addReportEmailSchema,
      responses: { 201: { description: 'EMAIL ADDED', schema: reportEmailAnswerSchema } },
    },
    {
      method: 'post',
      path: '/api/v1/email/:id',
      tag,
      summary: 'Edit an address: email, name and/or the Enabled switch (is_enable)',
      description: own,
      body: editReportEmailSchema,
      responses: { 200: { description: 'EMAIL EDITTED', schema: reportEmailAnswerSchema }, 404: emailNotFound },
    },
    {
      method: 'post',
      path: '/api/v1/deleteEmail/:id',
      tag,
      summary: 'Delete an address from the list',
      description: `The spec's client sends {"isEnable": false}; the call deletes the address (the Enabled switch is POST /email/{id}). The body may be left out; {"isEnable": true} is refused. ${own}`,
      body: deleteReportEmailSchema,
      responses: { 200: { description: REPORT_MESSAGES.emailDeleted, schema: detail }, 404: emailNotFound },
    },
    {
      method: 'get',
      path: '/api/v1/reportTag',
      tag,
      summary: "The caller's saved tags (device lists), by name",
      description: "Each tag lists its devices in the caller's scope, as deviceSerials and devices [{serial, label}].",
      responses: { 200: { description: 'Tags', schema: z.array(reportTagAnswerSchema) } },
    },
    {
      method: 'post',
      path: '/api/v1/addReportTag',
      tag,
      summary: 'Save a device list as a tag: {name, deviceSerials}',
      description: `The spec's 'tag plus name' is accepted too: {"name", "tag": {"deviceSerials": [...]}}, {"tag": {"devices": [{"serial"}]}} or {"tag": [...]}. A name the caller already uses (ignoring case): 400 {"name": ["${REPORT_MESSAGES.duplicateTagName}"]}. ${serials}`,
      body: addReportTagSchema,
      responses: { 201: { description: 'The new tag', schema: reportTagAnswerSchema } },
    },
    {
      method: 'post',
      path: '/api/v1/editReportTag/:id',
      tag,
      summary: 'Rename a tag and/or replace its devices',
      description: `Same payload as addReportTag, each part optional. Devices of the tag now outside the caller's scope are kept. ${own}`,
      body: editReportTagSchema,
      responses: { 200: { description: 'The edited tag', schema: reportTagAnswerSchema }, 404: tagNotFound },
    },
    {
      method: 'post',
      path: '/api/v1/removeReportTag/:id',
      tag,
      summary: 'Delete a tag (its devices stay)',
      description: own,
      responses: { 200: { description: REPORT_MESSAGES.tagDeleted, schema: detail }, 404: tagNotFound },
    },
    {
      method: 'post',
      path: '/api/v1/report',
      tag,
      summary: 'Report data: per device dispenses per pump and fluid, fl.oz. used, battery, warnings; totals; counts',
      description: `${range} ${serials} Fluid used is ml / 1000 (litres) / 0.0295735, 2 decimals; battery is the last reading before the range ends; warnings are current. The answer is what POST /api/pdf renders.`,
      body: reportRequestSchema,
      responses: { 200: { description: 'The report', schema: reportAnswerSchema } },
    },
    {
      method: 'post',
      path: '/api/v1/downloadReport',
      tag,
      summary: 'The report as a spreadsheet (.xlsx)',
      description: `${range} ${serials} ${fileNote}`,
      body: reportRequestSchema,
      responses: { 200: { description: `${XLSX_TYPE} bytes` } },
    },
    {
      method: 'post',
      path: '/api/v1/emailReport',
      tag,
      summary: "Mail the report (xlsx and pdf attached) to addresses of the caller's Email List for Report: queued",
      description: `One queued job per confirmed address, retried on failure; addresses that have not confirmed are skipped and listed in \`unconfirmed\` (400 when none has), and asked again at most once a day. At most 30 report mails an hour per user (429, Retry-After). each keyed by the request (caller, range, devices, addresses, request id) and the address, so a retry, a second worker or the same request again never mails twice. The request id is requestId in the body, else the Idempotency-Key header, else a new one (each call then sends). Empty emails: 400 {"emails": ["${REPORT_MESSAGES.emailListEmpty}"]}; an address not enabled in the caller's list: 400. ${serials}`,
      body: emailReportSchema,
      responses: {
        202: { description: 'Queued', schema: emailReportAnswerSchema },
        429: { description: 'Over 30 report mails in the hour; see Retry-After' },
        503: { description: 'The queue is unreachable: send again with the same requestId', schema: detail },
      },
    },
    {
      method: 'post',
      path: '/api/pdf',
      tag,
      summary: 'Render report data (the answer of POST /api/v1/report) as a PDF',
      description: `Same origin, same token. A4 landscape, the table header repeated on each page, page numbers. ${fileNote} Body up to ${PDF_BODY_LIMIT}.`,
      body: reportAnswerSchema,
      responses: { 200: { description: 'application/pdf bytes' } },
    },
  ];
  // The link of a confirmation mail: public (the recipient has no account), its token the only credential.
  const confirm = Router();
  confirm.get('/:token', async (req, res) => {
    const done = await service.confirmRecipient(req.params.token);
    res
      .status(done ? 200 : 404)
      .type('html')
      .send(
        confirmationPage(
          done
            ? `${done.email} is confirmed: reports that ${done.owner} sends from the fleet portal will reach it.`
            : 'This confirmation link is not valid: it was already used, a newer one was sent, or the address was removed from the list.',
        ),
      );
  });
  docs.push({
    method: 'get',
    path: `${CONFIRM_PATH}/:token`,
    tag,
    auth: 'none',
    summary: 'Confirm a report recipient (the link of its confirmation mail); an HTML page saying what was confirmed',
    description:
      'A new address on an Email List for Report gets one confirmation mail (at most one a day per address); no report reaches it before this link is opened. The token is single-purpose and works once.',
    responses: {
      200: { description: 'Confirmed (text/html)' },
      404: { description: 'Unknown, used or replaced token (text/html)' },
    },
  });
  return { router, docs, mounts: [{ path: '/api/pdf', router: pdf }], publicMounts: [{ path: CONFIRM_PATH, router: confirm }] };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain page (no script, no style: the portal's CSP holds) for a person who clicked a mail's link. */
function confirmationPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Fleet portal reports</title></head><body><main><h1>Fleet portal reports</h1><p>${escapeHtml(message)}</p></main></body></html>`;
}
