import { createRequire } from 'node:module';
import { eq } from 'drizzle-orm';
import PDFDocument from 'pdfkit';
import type { CrewPlan, PlanBody } from '@fleet/shared';
import type { ServicePlanDeps } from '@fleet/workers';
import type { Db } from '../db/client.ts';
import { servicePlans } from '../db/schema.ts';

const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf');

/** "08:40" from a zoned ISO time (the ETA is already in the site's time). */
const clock = (iso: string) => iso.slice(11, 16);
const zoneLabel = (iso: string) => `UTC${iso.slice(19) || ''}`;

/** One crew's day in words: the mail's body and the PDF's lines. */
export function crewPlanLines(date: string, c: CrewPlan): string[] {
  const lines = [
    `${c.crew.name}: service day ${date}`,
    `Start ${clock(c.totals.start)} at the depot, back about ${clock(c.totals.returnAt)} (times in the site's zone, ${zoneLabel(c.totals.start)}).`,
    `${c.totals.stops} stops, ${c.totals.devices} devices, ${c.totals.km} km, ${c.totals.drivingMinutes} min driving.`,
    '',
    'Stops:',
  ];
  for (const s of c.stops) {
    lines.push(`${s.order}. ${clock(s.eta)}  ${s.site.name || s.site.address} - ${s.site.address}`);
    for (const d of s.devices) {
      const refill = d.refill
        .map((r) => `${r.pump === 1 ? 'left' : 'right'} ${r.litres} L from ${r.batchNumber ?? 'NO USABLE BATCH'}`)
        .join(', ');
      lines.push(`   ${d.serial}${d.topUp ? ' (top-up)' : ''}: ${d.reasons.join('; ')}`);
      if (refill) lines.push(`      refill: ${refill}`);
      if (d.battery) lines.push('      swap the battery');
    }
  }
  lines.push('', 'Pick list:');
  for (const b of c.pickList.batches) lines.push(`   ${b.batchNumber} (${b.brand}, ${b.fluid.toLowerCase()}): ${b.litres} L`);
  lines.push(`   ${c.pickList.litres} L of fluid in all, ${c.pickList.batteries} batteries`);
  for (const s of c.pickList.shortages) lines.push(`   ${s.text}`);
  if (c.pickList.warningsToFix.length) {
    lines.push('', 'To fix:');
    for (const w of c.pickList.warningsToFix) lines.push(`   ${w.serial}: ${w.text}`);
  }
  return lines;
}

export function crewPlanPdf(date: string, c: CrewPlan): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    info: { Title: `Service day ${date}: ${c.crew.name}`, Creator: 'Fleet Portal' },
  });
  doc.registerFont('Body', FONT);
  doc.registerFont('Body-Bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (b: Buffer) => chunks.push(b));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const [title, ...rest] = crewPlanLines(date, c);
  doc.font('Body-Bold').fontSize(16).text(title!);
  doc.moveDown(0.5);
  for (const line of rest)
    doc
      .font(/^\d+\. /.test(line) || /:$/.test(line) ? 'Body-Bold' : 'Body')
      .fontSize(10)
      .text(line || ' ');
  doc.end();
  return done;
}

/** The job port: renders one crew's mail from the stored plan. */
export function servicePlanRenderer(db: Db): ServicePlanDeps['servicePlans'] {
  return {
    async render(planId, crewId) {
      const [row] = await db
        .select({ body: servicePlans.body, date: servicePlans.planDate, version: servicePlans.version })
        .from(servicePlans)
        .where(eq(servicePlans.id, planId));
      if (!row) throw new Error(`service plan ${planId} is gone`);
      const body = row.body as PlanBody;
      const c = body.crews.find((x) => x.crew.id === crewId);
      if (!c) throw new Error(`crew ${crewId} is not in service plan ${planId}`);
      const pdf = await crewPlanPdf(row.date, c);
      return {
        subject: `Service day ${row.date}: ${c.crew.name}, ${c.totals.stops} stops`,
        text: crewPlanLines(row.date, c).join('\n'),
        attachments: [
          {
            filename: `service-day-${row.date}-${c.crew.name.replace(/[^\w-]+/g, '-')}.pdf`,
            content: pdf,
            contentType: 'application/pdf',
          },
        ],
      };
    },
  };
}
