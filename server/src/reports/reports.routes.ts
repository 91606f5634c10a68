import express, { type Response } from 'express';
import {
  contentDisposition,
  reportAnswerSchema,
  reportFileName,
  reportRequestSchema,
  PDF_BODY_LIMIT,
  reportsApi,
} from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import { parse } from '../lib/errors.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { telemetryRepository } from '../telemetry/index.ts';
import { reportPdf, reportXlsx, XLSX_TYPE } from './report-files.ts';
import { reportsRepository } from './reports.repository.ts';
import { CONFIRM_PATH, reportsService } from './reports.service.ts';

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
  const { router, docs, on } = endpointRoutes();
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

  on(reportsApi.emails, async (req, res) => void res.json(await service.emails(viewerOf(req))));
  on(reportsApi.addEmail, async (req, res) => void res.status(201).json(await service.addEmail(viewerOf(req), req.body)));
  on(reportsApi.editEmail, async (req, res) => void res.json(await service.editEmail(viewerOf(req), req.params.id, req.body)));
  on(
    reportsApi.deleteEmail,
    async (req, res) => void res.json(await service.removeEmail(viewerOf(req), req.params.id, req.body)),
  );

  on(reportsApi.reportTags, async (req, res) => void res.json(await service.tags(viewerOf(req))));
  on(reportsApi.addReportTag, async (req, res) => void res.status(201).json(await service.addTag(viewerOf(req), req.body)));
  on(reportsApi.editReportTag, async (req, res) => void res.json(await service.editTag(viewerOf(req), req.params.id, req.body)));
  on(reportsApi.removeReportTag, async (req, res) => void res.json(await service.removeTag(viewerOf(req), req.params.id)));

  on(
    reportsApi.report,
    async (req, res) => void res.json(await service.build(viewerOf(req), parse(reportRequestSchema, req.body ?? {}))),
  );
  on(reportsApi.downloadReport, async (req, res) => {
    const report = await service.build(viewerOf(req), parse(reportRequestSchema, req.body ?? {}));
    file(res, reportFileName(report.start_date, report.end_date, 'xlsx'), XLSX_TYPE, await reportXlsx(report));
  });
  on(
    reportsApi.emailReport,
    async (req, res) => void res.status(202).json(await service.emailReport(viewerOf(req), req.body, req.get('idempotency-key'))),
  );

  // POST /api/pdf (outside /api/v1, as the spec's client calls it): renders report data it is given.
  const pdf = endpointRoutes('/api/pdf');
  pdf.router.use(express.json({ limit: PDF_BODY_LIMIT }));
  pdf.on(reportsApi.pdf, async (req, res) => {
    viewerOf(req);
    const report = parse(reportAnswerSchema, req.body ?? {});
    file(res, reportFileName(report.start_date, report.end_date, 'pdf'), 'application/pdf', await reportPdf(report));
  });

  // The link of a confirmation mail: public (the recipient has no account), its token the only credential.
  const confirm = endpointRoutes(CONFIRM_PATH);
  confirm.on(reportsApi.confirmReportEmail, async (req, res) => {
    const done = await service.confirmRecipient(String(req.params.token));
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
  return {
    router,
    docs: [...docs, ...pdf.docs, ...confirm.docs],
    mounts: [{ path: '/api/pdf', router: pdf.router }],
    publicMounts: [{ path: CONFIRM_PATH, router: confirm.router }],
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain page (no script, no style: the portal's CSP holds) for a person who clicked a mail's link. */
function confirmationPage(message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Fleet portal reports</title></head><body><main><h1>Fleet portal reports</h1><p>${escapeHtml(message)}</p></main></body></html>`;
}
