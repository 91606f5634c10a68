import request from 'supertest';
import type { Express } from 'express';
import { mailText, type ReceivedMail } from './smtp.ts';

/** The confirmation link in the last confirmation mail an address received (issue 42), as a path on the portal. */
export function confirmationPath(received: ReceivedMail[], email: string): string | undefined {
  const mail = received.filter((m) => m.to.includes(email) && /Confirm to receive fleet portal reports/.test(m.raw)).at(-1);
  const url = mail && /https?:\/\/\S+\/api\/v1\/confirmReportEmail\/[0-9a-f]+/.exec(mailText(mail.raw))?.[0];
  return url && new URL(url).pathname;
}

/**
 * Opens the confirmation link mailed to each address, as its recipient would: a report recipient added to a
 * list receives reports only after that. Waits for the mails (the outbox relays them) up to `timeoutMs`.
 */
export async function confirmRecipients(
  app: Express,
  received: ReceivedMail[],
  emails: string[],
  timeoutMs = 10_000,
): Promise<void> {
  for (const email of emails) {
    const until = Date.now() + timeoutMs;
    let path = confirmationPath(received, email);
    while (!path && Date.now() < until) {
      await (app as unknown as { queue?: { drain?(): Promise<void> } }).queue?.drain?.();
      await new Promise((r) => setTimeout(r, 100));
      path = confirmationPath(received, email);
    }
    if (!path) throw new Error(`no confirmation mail reached ${email}`);
    const res = await request(app).get(path);
    if (res.status !== 200) throw new Error(`confirming ${email}: ${res.status}`);
  }
}
