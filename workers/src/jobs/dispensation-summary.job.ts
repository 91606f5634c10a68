import { z } from 'zod';
import type { JobDefinition } from '../queue.ts';
import type { MailDeps } from './batch-recall-notice.job.ts';

/**
 * The daily dispensation notification and the weekly report mail (users' is_enable_notification_daily_dispensation
 * and is_enable_notification_weekly_report): dispenses and fluid used per site over the period, in the
 * recipient's scope, as the report builder counts them. Each site counts its own calendar days in its zone:
 * `from`/`until` are the days most sites share; a site whose days differ names its own.
 */
export const dispensationSummarySchema = z.object({
  to: z.email(),
  name: z.string(),
  period: z.enum(['daily', 'weekly']),
  from: z.string(),
  until: z.string(),
  sites: z.array(
    z.object({
      name: z.string(),
      devices: z.number().int(),
      dispenses: z.number().int(),
      sunscreenFlOz: z.number(),
      sanitizerFlOz: z.number(),
      /** The site's own days, when they differ from the mail's (another zone). */
      from: z.string().optional(),
      until: z.string().optional(),
    }),
  ),
});

export const dispensationSummaryJob: JobDefinition<typeof dispensationSummarySchema, MailDeps> = {
  schema: dispensationSummarySchema,
  async process(p, deps) {
    const total = p.sites.reduce((n, s) => n + s.dispenses, 0);
    const sun = p.sites.reduce((n, s) => n + s.sunscreenFlOz, 0);
    const san = p.sites.reduce((n, s) => n + s.sanitizerFlOz, 0);
    const days = (from: string, until: string) => `${from}${from === until ? '' : ` to ${until}`}`;
    const rows = p.sites.map(
      (s) =>
        `- ${s.name}: ${s.dispenses} dispenses on ${s.devices} device${s.devices === 1 ? '' : 's'} (sunscreen ${s.sunscreenFlOz.toFixed(1)} fl.oz., sanitiser ${s.sanitizerFlOz.toFixed(1)} fl.oz.)${s.from && s.until ? `, ${days(s.from, s.until)} in its time zone` : ''}`,
    );
    await deps.mailer.send({
      to: p.to,
      subject: `${p.period === 'daily' ? 'Daily dispensation' : 'Weekly report'}: ${total} dispenses (${days(p.from, p.until)})`,
      text: [
        `Hello ${p.name},`,
        '',
        `${p.period === 'daily' ? 'Yesterday' : 'Last week'} your devices dispensed ${total} times: ${sun.toFixed(1)} fl.oz. of sunscreen and ${san.toFixed(1)} fl.oz. of sanitiser.`,
        '',
        ...(rows.length ? rows : ['No dispenses in this period.']),
      ].join('\n'),
    });
  },
};
