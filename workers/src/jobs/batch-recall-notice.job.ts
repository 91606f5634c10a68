import { z } from 'zod';
import type { JobDefinition } from '../queue.ts';

export type MailAttachment = { filename: string; content: Buffer; contentType?: string };
export type MailDeps = {
  mailer: {
    send(m: {
      to: string | string[];
      subject: string;
      text: string;
      html?: string;
      attachments?: MailAttachment[];
    }): Promise<void>;
  };
};

/** Tells one client company that a batch feeding its devices was recalled. */
export const batchRecallNoticeSchema = z.object({
  to: z.email(),
  clientName: z.string(),
  batchNumber: z.string(),
  batchType: z.string(),
  recalledAt: z.string(),
  paused: z.boolean(),
  devices: z.array(z.object({ serial: z.string(), label: z.string(), address: z.string(), pumps: z.array(z.number()) })),
});

export const batchRecallNoticeJob: JobDefinition<typeof batchRecallNoticeSchema, MailDeps> = {
  schema: batchRecallNoticeSchema,
  async process(p, deps) {
    const lines = p.devices.map(
      (d) =>
        `- ${d.label || d.serial} (S/N ${d.serial}), ${d.address}: ${d.pumps.map((n) => (n === 1 ? 'left' : 'right')).join(' and ')} pump`,
    );
    await deps.mailer.send({
      to: p.to,
      subject: `Batch ${p.batchNumber} recalled`,
      text: [
        `Hello ${p.clientName},`,
        '',
        `${p.batchType} batch ${p.batchNumber} was recalled on ${p.recalledAt}. It feeds ${p.devices.length} of your device${p.devices.length === 1 ? '' : 's'}:`,
        ...lines,
        '',
        p.paused ? 'These pumps have been paused until the batch is replaced.' : 'Please replace the fluid in these pumps.',
      ].join('\n'),
    });
  },
};
