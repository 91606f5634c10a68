import { z } from 'zod';
import {
  REPORT_LIMITS,
  REPORT_MESSAGES,
  addReportEmailSchema,
  addReportTagSchema,
  deleteReportEmailSchema,
  editReportEmailSchema,
  editReportTagSchema,
  emailReportAnswerSchema,
  emailReportSchema,
  reportAnswerSchema,
  reportEmailAnswerSchema,
  reportRequestSchema,
  reportTagAnswerSchema,
} from '../schemas/report.schema.ts';
import { endpoint } from './endpoint.ts';

/** Report data for the PDF can be larger than the portal's 100 kB JSON limit (2,000 devices). */
export const PDF_BODY_LIMIT = '2mb';
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

/** The report calls of spec section 7 (Email List for Report, tags, reports), the same-origin POST /api/pdf and the recipients' confirmation link. */
export const reportsApi = {
  emails: endpoint({
    method: 'get',
    path: '/api/v1/email',
    tag,
    summary: "Email List for Report: the caller's addresses, oldest first",
    responses: { 200: { description: 'Addresses', schema: z.array(reportEmailAnswerSchema) } },
  }),
  addEmail: endpoint({
    method: 'post',
    path: '/api/v1/addEmail',
    tag,
    summary: 'Add an address to the Email List for Report (enabled)',
    description: `Name and email required. An address already in the list (ignoring case): 400 {"email": ["${REPORT_MESSAGES.duplicateEmail}"]}. At most ${REPORT_LIMITS.maxEmails} addresses.`,
    body: addReportEmailSchema,
    responses: { 201: { description: 'EMAIL ADDED', schema: reportEmailAnswerSchema } },
  }),
  editEmail: endpoint({
    method: 'post',
    path: '/api/v1/email/:id',
    tag,
    summary: 'Edit an address: email, name and/or the Enabled switch (is_enable)',
    description: own,
    body: editReportEmailSchema,
    responses: { 200: { description: 'EMAIL EDITTED', schema: reportEmailAnswerSchema }, 404: emailNotFound },
  }),
  deleteEmail: endpoint({
    method: 'post',
    path: '/api/v1/deleteEmail/:id',
    tag,
    summary: 'Delete an address from the list',
    description: `The spec's client sends {"isEnable": false}; the call deletes the address (the Enabled switch is POST /email/{id}). The body may be left out; {"isEnable": true} is refused. ${own}`,
    body: deleteReportEmailSchema,
    responses: { 200: { description: REPORT_MESSAGES.emailDeleted, schema: detail }, 404: emailNotFound },
  }),
  reportTags: endpoint({
    method: 'get',
    path: '/api/v1/reportTag',
    tag,
    summary: "The caller's saved tags (device lists), by name",
    description: "Each tag lists its devices in the caller's scope, as deviceSerials and devices [{serial, label}].",
    responses: { 200: { description: 'Tags', schema: z.array(reportTagAnswerSchema) } },
  }),
  addReportTag: endpoint({
    method: 'post',
    path: '/api/v1/addReportTag',
    tag,
    summary: 'Save a device list as a tag: {name, deviceSerials}',
    description: `The spec's 'tag plus name' is accepted too: {"name", "tag": {"deviceSerials": [...]}}, {"tag": {"devices": [{"serial"}]}} or {"tag": [...]}. A name the caller already uses (ignoring case): 400 {"name": ["${REPORT_MESSAGES.duplicateTagName}"]}. ${serials}`,
    body: addReportTagSchema,
    responses: { 201: { description: 'The new tag', schema: reportTagAnswerSchema } },
  }),
  editReportTag: endpoint({
    method: 'post',
    path: '/api/v1/editReportTag/:id',
    tag,
    summary: 'Rename a tag and/or replace its devices',
    description: `Same payload as addReportTag, each part optional. Devices of the tag now outside the caller's scope are kept. ${own}`,
    body: editReportTagSchema,
    responses: { 200: { description: 'The edited tag', schema: reportTagAnswerSchema }, 404: tagNotFound },
  }),
  removeReportTag: endpoint({
    method: 'post',
    path: '/api/v1/removeReportTag/:id',
    tag,
    summary: 'Delete a tag (its devices stay)',
    description: own,
    responses: { 200: { description: REPORT_MESSAGES.tagDeleted, schema: detail }, 404: tagNotFound },
  }),
  report: endpoint({
    method: 'post',
    path: '/api/v1/report',
    tag,
    summary: 'Report data: per device dispenses per pump and fluid, fl.oz. used, battery, warnings; totals; counts',
    description: `${range} ${serials} Fluid used is ml / 1000 (litres) / 0.0295735, 2 decimals; battery is the last reading before the range ends; warnings are current. The answer is what POST /api/pdf renders.`,
    body: reportRequestSchema,
    responses: { 200: { description: 'The report', schema: reportAnswerSchema } },
  }),
  downloadReport: endpoint({
    method: 'post',
    path: '/api/v1/downloadReport',
    tag,
    summary: 'The report as a spreadsheet (.xlsx)',
    description: `${range} ${serials} ${fileNote}`,
    body: reportRequestSchema,
    responses: { 200: { description: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet bytes' } },
  }),
  emailReport: endpoint({
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
  }),
  pdf: endpoint({
    method: 'post',
    path: '/api/pdf',
    tag,
    summary: 'Render report data (the answer of POST /api/v1/report) as a PDF',
    description: `Same origin, same token. A4 landscape, the table header repeated on each page, page numbers. ${fileNote} Body up to ${PDF_BODY_LIMIT}.`,
    body: reportAnswerSchema,
    responses: { 200: { description: 'application/pdf bytes' } },
  }),
  confirmReportEmail: endpoint({
    method: 'get',
    path: '/api/v1/confirmReportEmail/:token',
    tag,
    auth: 'none',
    summary: 'Confirm a report recipient (the link of its confirmation mail); an HTML page saying what was confirmed',
    description:
      'A new address on an Email List for Report gets one confirmation mail (at most one a day per address); no report reaches it before this link is opened. The token is single-purpose and works once.',
    responses: {
      200: { description: 'Confirmed (text/html)' },
      404: { description: 'Unknown, used or replaced token (text/html)' },
    },
  }),
};
