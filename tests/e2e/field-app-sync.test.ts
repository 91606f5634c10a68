/**
 * The field app (issue 44) after its records are sent, in Chromium at phone size (390x844): the server's
 * answer reaches the technician in words. Two refills are recorded without signal; meanwhile, in the
 * portal, one's batch is recalled and the other's expires. When the signal returns:
 * - the refill from the recalled batch is stored (the pump was filled with it: issue 44's decision) and the
 *   phone shows the server's warning, until dismissed;
 * - the refill from the batch that had expired on the day is refused, and the phone shows the reason.
 */
import fs from 'node:fs';
import { eq } from 'drizzle-orm';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchAnswer, MaintenanceDevice, MaintenanceRecord } from '@fleet/shared';
import { batches } from '../../server/src/db/schema.ts';
import { ARTIFACTS, CHROMIUM, PASSWORD, screenshot, seriousAxe, TABLET, TEST_BROWSER_ARGS } from './browser.ts';
import { startPortal, type Portal } from './server.ts';

const PHONE = { width: 390, height: 844 };
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the field app after sync: warnings and refusals in words', () => {
  let portal: Portal;
  let browser: Browser;
  let context: BrowserContext;
  beforeAll(async () => {
    portal = await startPortal();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: TEST_BROWSER_ARGS });
    context = await browser.newContext({ viewport: PHONE, baseURL: portal.baseURL });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await portal?.close();
  });

  /** The portal's API from the test (Node's fetch: the phone's offline switch does not reach it). */
  const api = async <T>(url: string, init: { method?: string; token: string; body?: unknown }): Promise<T> => {
    const res = await fetch(`${portal.baseURL}${url}`, {
      method: init.method ?? 'GET',
      headers: { Authorization: `Token ${init.token}`, 'Content-Type': 'application/json' },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    expect(res.status, `${init.method ?? 'GET'} ${url}`).toBe(200);
    return (await res.json()) as T;
  };

  /** Refill the left pump (sunscreen) of a listed device with a batch chosen by its number, and save. */
  const refillLeft = async (page: Page, serial: string, batchNo: string) => {
    await page
      .locator(`[data-testid="maintenance-device"][data-serial="${serial}"]`)
      .getByRole('button', { name: /^Record work on/ })
      .click();
    const screen = page.locator(`[data-testid="device-screen"][data-serial="${serial}"]`);
    await screen.getByRole('button', { name: 'Refill left · Sunscreen' }).click();
    const choice = screen.getByTestId('batch-choice-1');
    await choice.getByRole('radio', { name: new RegExp(`^${escape(batchNo)} · expires`) }).check();
    await choice.getByRole('button', { name: `Use batch ${batchNo}` }).click();
    await screen.getByRole('button', { name: 'Save' }).click();
    await screen.waitFor({ state: 'hidden' });
  };

  it('a refill from a batch recalled meanwhile is stored and its warning shown; one whose batch expired meanwhile is refused with the reason', async () => {
    const token = portal.harness.config.maintenanceToken;
    const login = await fetch(`${portal.baseURL}/auth/token/login/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'distributor@demo.test', password: PASSWORD }),
    });
    const distributor = ((await login.json()) as { auth_token: string }).auth_token;
    const today = new Date().toISOString().slice(0, 10);
    const usable = (await api<BatchAnswer[]>('/api/v1/batch', { token: distributor }))
      .filter((b) => b.batchType === 1 && !b.is_recalled && b.expiryDate.slice(0, 10) > today && b.remain > 0)
      .sort((a, b) => a.expiryDate.localeCompare(b.expiryDate) || a.batchNumber.localeCompare(b.batchNumber));
    expect(usable.length, 'two usable sunscreen batches').toBeGreaterThanOrEqual(2);
    const [toRecall, toExpire] = usable as [BatchAnswer, BatchAnswer];

    const page = await context.newPage();
    await page.goto(`/maintenance#token=${token}`);
    await page.getByTestId('maintenance-device').first().waitFor();
    // Two devices of the list (kept on the phone, so they open without signal) with sunscreen in the left pump.
    const listed = await page
      .getByTestId('maintenance-device')
      .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.serial!));
    const sunscreenLeft = (
      await api<MaintenanceDevice[]>(`/api/v1/maintenanceDevices?serials=${listed.join(',')}`, { token })
    ).filter((d) => d.pumps.some((p) => p.pump === 1 && p.pump_type === 'Sunscreen'));
    expect(sunscreenLeft.length, 'two listed devices with sunscreen in the left pump').toBeGreaterThanOrEqual(2);
    const [first, second] = sunscreenLeft as [MaintenanceDevice, MaintenanceDevice];
    // The batches are on the phone once the app has read them (kept for a start without signal).
    await page.waitForFunction(async () => {
      const open = indexedDB.open('fleet-field-app');
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      try {
        const get = db.transaction('snapshots').objectStore('snapshots').get('batches');
        return await new Promise<boolean>((resolve) => {
          get.onsuccess = () => resolve(Boolean(get.result));
          get.onerror = () => resolve(false);
        });
      } finally {
        db.close();
      }
    });

    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await context.setOffline(true);
    try {
      await refillLeft(page, first.serial, toRecall.batchNumber);
      await refillLeft(page, second.serial, toExpire.batchNumber);
      await expect
        .poll(() => page.getByTestId('waiting-count').textContent())
        .toBe('2 records wait to be sent: they go when the signal returns.');
      // Meanwhile, in the portal: the first batch is recalled, the second had expired yesterday.
      await api(`/api/v1/recallBatch/${toRecall.id}`, { method: 'POST', token: distributor, body: {} });
      await portal.harness.database.db.update(batches).set({ expireDate: yesterday }).where(eq(batches.id, toExpire.id));
    } finally {
      await context.setOffline(false);
    }

    // No tap: the browser's 'online' event sends them.
    await expect.poll(() => page.getByTestId('waiting-count').textContent(), { timeout: 20_000 }).toBe('Every record is sent.');
    const warned = page.getByTestId('warned-record');
    await expect.poll(() => warned.count(), { timeout: 10_000 }).toBe(1);
    expect(await warned.textContent()).toContain(
      `(${first.serial}): Batch ${toRecall.batchNumber} in the left pump was recalled: the device now warns of it (Batch recalled).`,
    );
    const refused = page.getByTestId('refused-record');
    expect(await refused.count()).toBe(1);
    expect(await refused.textContent()).toContain(
      `(${second.serial}): Batch ${toExpire.batchNumber} had expired (${yesterday}).`,
    );
    expect(await page.getByText('Stored, with a warning').isVisible()).toBe(true);
    expect(await page.getByText('Not stored: the server refused').isVisible()).toBe(true);
    expect(await seriousAxe(page)).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, 'field-app-sync-390');
    await page.setViewportSize(TABLET);
    await screenshot(page, 'field-app-sync-820');
    await page.setViewportSize(PHONE);

    // Stored once, with its warning; the refused one is not stored.
    const records = await api<MaintenanceRecord[]>(`/api/v1/maintenanceRecords?limit=500`, { token });
    const stored = records.filter((r) => r.refills.some((f) => f.batch_id === toRecall.id) && r.serial === first.serial);
    expect(stored.map((r) => [r.refills[0]?.recalled, r.warnings.length])).toEqual([[true, 1]]);
    expect(records.some((r) => r.serial === second.serial && r.refills.some((f) => f.batch_id === toExpire.id))).toBe(false);

    // Read and dismissed, each leaves the phone (and stays gone after a reload).
    await page.getByRole('button', { name: `Dismiss the warning of ${first.label || first.serial}` }).click();
    await page.getByRole('button', { name: `Dismiss the refused record of ${second.label || second.serial}` }).click();
    await expect.poll(() => warned.count()).toBe(0);
    await expect.poll(() => refused.count()).toBe(0);
    await page.reload();
    await page.getByTestId('maintenance-device').first().waitFor();
    expect(await page.getByTestId('warned-record').count()).toBe(0);
  });
});
