import fs from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';

export type MailMessage = {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  attachments?: { filename: string; content: Buffer; contentType?: string }[];
};

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** SMTP when SMTP_URL is set (smtp://user:pass@host:port); otherwise mails are written to an outbox. */
export function createMailer(opts: {
  smtpUrl?: string | undefined;
  from: string;
  outboxDir: string;
  log?: (m: string) => void;
}): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: opts.from, ...message });
      },
    };
  }
  return outboxMailer(opts.outboxDir, opts.from, opts.log);
}

/** Writes each mail as an .eml file (openable by any mail client) to the outbox folder. */
export function outboxMailer(dir: string, from: string, log?: (m: string) => void): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      fs.mkdirSync(dir, { recursive: true });
      const to = Array.isArray(message.to) ? message.to.join(',') : message.to;
      const file = path.join(
        dir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${to.replace(/[^a-z0-9@.-]/gi, '_').slice(0, 60)}.eml`,
      );
      fs.writeFileSync(file, info.message as Buffer);
      log?.(`mail to ${to} written to ${file}`);
    },
  };
}
