import { eq } from 'drizzle-orm';
import { reportFileName, safeFileName } from '@fleet/shared';
import type { ReportDeps } from '@fleet/workers';
import { accessOf } from '../access/scope.ts';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { telemetryRepository } from '../telemetry/telemetry.repository.ts';
import { reportPdf, reportXlsx, XLSX_TYPE } from './report-files.ts';
import { reportsRepository } from './reports.repository.ts';
import { reportBuilder } from './reports.service.ts';

/**
 * The `reports` port of the report-email job: builds the report in the requester's scope as it is when the
 * job runs (an account deactivated meanwhile, or a device no longer in scope, fails the job rather than
 * mailing what the requester may no longer see) and renders both attachments.
 */
export function reportRenderer(db: Db, now: () => Date = () => new Date()): ReportDeps['reports'] {
  const builder = reportBuilder({ repo: reportsRepository(db), telemetry: telemetryRepository(db), now });
  return {
    async render(request) {
      const [user] = await db.select().from(users).where(eq(users.id, request.requestedBy));
      if (!user?.activated) throw new Error(`report requested by user ${request.requestedBy}, who is no longer active`);
      const viewer = { id: user.id, access: accessOf(user) };
      const report = await builder.build(viewer, request);
      const [xlsx, pdf] = await Promise.all([reportXlsx(report), reportPdf(report)]);
      // Attachment names cannot hold the spec's slashes: the same name with '_' (what a browser saves).
      const name = (ext: 'xlsx' | 'pdf') => safeFileName(reportFileName(report.start_date, report.end_date, ext));
      return {
        rangeLabel: report.range_label,
        days: report.days,
        counts: report.counts,
        totals: report.totals,
        attachments: [
          { filename: name('xlsx'), content: xlsx, contentType: XLSX_TYPE },
          { filename: name('pdf'), content: pdf, contentType: 'application/pdf' },
        ],
      };
    },
  };
}
