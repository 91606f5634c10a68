import { z } from 'zod';
import type { JobDefinition } from '../queue.ts';
import type { MailAttachment, MailDeps } from './batch-recall-notice.job.ts';

/**
 * One report mail to one address (POST /api/v1/emailReport queues one job per address, each with its own
 * idempotency key, so a retry after a failure resends only the mails that did not go). The `reports` port the
 * server provides builds the report once per request (`requestKey`), when the first of its jobs runs, in the
 * requester's scope as it is then; the request's other jobs and their retries attach the same stored files.
 */
export const reportEmailSchema = z.object({
  to: z.email(),
  name: z.string(),
  /** The user who asked: the report is built in that user's scope. */
  requestedBy: z.number().int().positive(),
  deviceSerials: z.array(z.string().min(1)).min(1),
  /** Calendar days 'YYYY-MM-DD', both included (each site reports them in its own zone). */
  startDate: z.iso.date(),
  endDate: z.iso.date(),
  /** The request this mail belongs to: its jobs share one build of the report. Absent: the job builds its own. */
  requestKey: z.string().min(1).max(200).optional(),
});
export type ReportEmailPayload = z.output<typeof reportEmailSchema>;

/** What the mail says about the report, and its files. */
export type RenderedReport = {
  rangeLabel: string;
  days: number;
  counts: { devices: number; brands: number; counties: number };
  totals: { sunscreen_dispensed: number; sanitizer_dispensed: number; sunscreen_fl_oz: number; sanitizer_fl_oz: number };
  attachments: MailAttachment[];
};

export type ReportDeps = {
  reports: {
    render(
      request: Pick<ReportEmailPayload, 'requestedBy' | 'deviceSerials' | 'startDate' | 'endDate' | 'requestKey'>,
    ): Promise<RenderedReport>;
  };
};

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export const reportEmailJob: JobDefinition<typeof reportEmailSchema, MailDeps & ReportDeps> = {
  schema: reportEmailSchema,
  attempts: 5,
  backoffMs: 1000,
  async process(p, deps) {
    const r = await deps.reports.render(p);
    await deps.mailer.send({
      to: p.to,
      subject: `Dispensing report ${r.rangeLabel}`,
      text: [
        `Hello ${p.name || p.to},`,
        '',
        `Attached is the dispensing report for ${r.rangeLabel} (${plural(r.days, 'day')}): ${plural(r.counts.devices, 'device')}, ${plural(r.counts.brands, 'brand')}, ${plural(r.counts.counties, 'county', 'counties')}.`,
        `Sunscreen: ${r.totals.sunscreen_dispensed} dispenses, ${r.totals.sunscreen_fl_oz.toFixed(2)} fl.oz.`,
        `Sanitizer: ${r.totals.sanitizer_dispensed} dispenses, ${r.totals.sanitizer_fl_oz.toFixed(2)} fl.oz.`,
        '',
        'The spreadsheet (.xlsx) and the PDF hold the figures per device.',
      ].join('\n'),
      attachments: r.attachments,
    });
  },
};
