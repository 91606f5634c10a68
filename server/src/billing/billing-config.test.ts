import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/config.ts';

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-billing-config-'));
const PROD = {
  NODE_ENV: 'production',
  SECRET_KEY: 'a'.repeat(40),
  MAINTENANCE_TOKEN: 'b'.repeat(40),
  SERVICE_TOKEN: 'c'.repeat(40),
};

describe('billing configuration', () => {
  it('generates the webhook secret once per DATA_DIR in development, beside the other secrets', () => {
    const dir = tmp();
    const a = loadConfig({ DATA_DIR: dir });
    expect(a.billing.webhookSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(loadConfig({ DATA_DIR: dir }).billing.webhookSecret).toBe(a.billing.webhookSecret);
    expect(loadConfig({ DATA_DIR: tmp() }).billing.webhookSecret).not.toBe(a.billing.webhookSecret);
    const stored = JSON.parse(fs.readFileSync(path.join(dir, 'secrets.json'), 'utf8'));
    expect(stored).toMatchObject({ secretKey: a.secretKey, billingWebhookSecret: a.billing.webhookSecret });
    // A changed SECRET_KEY rewrites the file without dropping the webhook secret.
    expect(loadConfig({ DATA_DIR: dir, SECRET_KEY: 'k'.repeat(40) }).billing.webhookSecret).toBe(a.billing.webhookSecret);
    expect(a.billing).toMatchObject({ dueDays: 14, webhookToleranceSeconds: 300 });
  });

  it('takes BILLING_WEBHOOK_SECRET from the environment, refuses a weak one, and leaves it unset in production', () => {
    expect(loadConfig({ DATA_DIR: tmp(), BILLING_WEBHOOK_SECRET: 'w'.repeat(30) }).billing.webhookSecret).toBe('w'.repeat(30));
    expect(() => loadConfig({ DATA_DIR: tmp(), BILLING_WEBHOOK_SECRET: 'secret' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: tmp(), BILLING_DUE_DAYS: '0' })).toThrow(/BILLING_DUE_DAYS/);
    const prodDir = tmp();
    expect(loadConfig({ ...PROD, DATA_DIR: prodDir }).billing.webhookSecret).toBeUndefined();
    expect(fs.existsSync(path.join(prodDir, 'secrets.json'))).toBe(false);
    expect(
      loadConfig({ ...PROD, DATA_DIR: tmp(), BILLING_WEBHOOK_SECRET: 'p'.repeat(32), BILLING_DUE_DAYS: '30' }).billing,
    ).toMatchObject({ webhookSecret: 'p'.repeat(32), dueDays: 30 });
  });
});
