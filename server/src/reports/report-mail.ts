import { eq } from 'drizzle-orm';
import { reportFileName, safeFileName, type ReportAnswer } from '@fleet/shared';
import type { RenderedReport, ReportDeps } from '@fleet/workers';
import { accessOf } from '../access/scope.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { telemetryRepository } from '../telemetry/index.ts';
import { dbReportFileStore, type ReportFileStore, type StoredReport } from './report-file-store.ts';
import { reportPdf, reportXlsx, XLSX_TYPE } from './report-files.ts';
import { reportsRepository } from './reports.repository.ts';
import { reportBuilder } from './reports.service.ts';

/** What a report mail says besides its files (kept with the stored files of a request). */
type MailSummary = Omit<RenderedReport, 'attachments'> & { startDate: string; endDate: string };

/** Both files of a report, rendered at once. */
export async function reportFiles(report: ReportAnswer): Promise<{ xlsx: Buffer; pdf: Buffer }> {
  const [xlsx, pdf] = await Promise.all([reportXlsx(report), reportPdf(report)]);
  return { xlsx, pdf };
}

export type ReportRendererOptions = {
  now?: () => Date;
  store?: ReportFileStore;
  /** Renders the files of a built report (tests count the builds through it). */
  files?: typeof reportFiles;
};

/**
 * The `reports` port of the report-email job. Each job checks that the requester is still active; the report
 * itself is built once per request (its `requestKey`) in the requester's scope as it is then, and stored, so
 * the other addresses of the request and every retry attach the same files (report-file-store.ts says why).
 * A job without a request key (queued before keys existed) builds its own.
 */
export function reportRenderer(db: Db, opts: ReportRendererOptions = {}): ReportDeps['reports'] {
  const builder = reportBuilder({
    repo: reportsRepository(db),
    telemetry: telemetryRepository(db),
    now: opts.now ?? (() => new Date()),
  });
  const store = opts.store ?? dbReportFileStore(db);
  const files = opts.files ?? reportFiles;
  return {
    async render(request) {
      const [user] = await db.select().from(users).where(eq(users.id, request.requestedBy));
      if (!user?.activated) throw new Error(`report requested by user ${request.requestedBy}, who is no longer active`);
      const build = async (): Promise<StoredReport<MailSummary>> => {
        const report = await builder.build({ id: user.id, access: accessOf(user) }, request);
        const { xlsx, pdf } = await files(report);
        const { range_label: rangeLabel, days, counts, totals, start_date: startDate, end_date: endDate } = report;
        return { summary: { rangeLabel, days, counts, totals, startDate, endDate }, xlsx, pdf };
      };
      const { summary, xlsx, pdf } = request.requestKey ? await store.once(request.requestKey, build) : await build();
      const { startDate, endDate, ...said } = summary;
      // Attachment names cannot hold the spec's slashes: the same name with '_' (what a browser saves).
      const name = (ext: 'xlsx' | 'pdf') => safeFileName(reportFileName(startDate, endDate, ext));
      return {
        ...said,
        attachments: [
          { filename: name('xlsx'), content: xlsx, contentType: XLSX_TYPE },
          { filename: name('pdf'), content: pdf, contentType: 'application/pdf' },
        ],
      };
    },
  };
}
