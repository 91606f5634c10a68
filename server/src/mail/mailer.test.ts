import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMailer } from './mailer.ts';

describe('outbox mailer (no SMTP_URL)', () => {
  it('writes each mail as an .eml file a mail client opens', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-outbox-'));
    const mailer = createMailer({ from: 'Portal <no-reply@x.test>', outboxDir: dir });
    await mailer.send({ to: 'ops@demo.test', subject: 'Hello', text: 'Body line' });
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/ops@demo\.test\.eml$/);
    const eml = fs.readFileSync(path.join(dir, files[0]!), 'utf8');
    expect(eml).toMatch(/^From: Portal <no-reply@x\.test>$/m);
    expect(eml).toMatch(/^To: ops@demo\.test$/m);
    expect(eml).toMatch(/^Subject: Hello$/m);
    expect(eml).toContain('Body line');
  });
});
