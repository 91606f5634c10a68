/**
 * The field app (issue 44) in Chromium at phone size: /maintenance is installable (CDP Page.getAppManifest
 * and Page.getInstallabilityErrors under a persistent profile), its service worker is registered for
 * /maintenance only, and the app shell loads with the network off; /maintenance-result is not captured.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARTIFACTS, CHROMIUM, screenshot, seriousAxe, TABLET, TEST_BROWSER_ARGS } from './browser.ts';
import { startPortal, type Portal } from './server.ts';

const PHONE = { width: 390, height: 844 };

describe('the field app: installable, offline shell', () => {
  let portal: Portal;
  let context: BrowserContext;
  let profile: string;
  beforeAll(async () => {
    portal = await startPortal();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'field-app-profile-'));
    // A persistent profile: Chromium answers installability (and keeps service workers) only for one.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: TEST_BROWSER_ARGS,
      viewport: PHONE,
      baseURL: portal.baseURL,
    });
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await portal?.close();
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
  });

  const openApp = async (): Promise<Page> => {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`/maintenance#token=${portal.harness.config.maintenanceToken}`);
    await page.getByTestId('maintenance-device').first().waitFor();
    return page;
  };

  it('has a manifest Chromium accepts, no installability errors, and its worker scoped to /maintenance', async () => {
    const page = await openApp();
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${portal.baseURL}/maintenance`);
    const cdp = await context.newCDPSession(page);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: { message: string }[]; data?: string };
    expect(manifest.url).toBe(`${portal.baseURL}/manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const parsed = JSON.parse(manifest.data ?? '{}') as {
      display: string;
      start_url: string;
      scope: string;
      icons: { sizes: string }[];
    };
    expect(parsed).toMatchObject({ display: 'standalone', start_url: '/maintenance', scope: '/maintenance' });
    expect(parsed.icons.map((i) => i.sizes)).toContain('512x512');
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
    // The worker and the manifest are revalidated on every load, not cached like hashed assets.
    for (const file of ['/sw.js', '/manifest.webmanifest']) {
      const res = await page.request.get(file);
      expect(res.headers()['cache-control'], file).toBe('no-cache');
    }
    // Other pages of the portal carry no manifest: the map is not offered as the field app.
    const other = await context.newPage();
    await other.goto('/maintenance-result');
    expect(await other.locator('link[rel="manifest"]').count()).toBe(0);
    await other.close();
    expect(await seriousAxe(page)).toEqual([]);
    await screenshot(page, 'field-app-list-390');
  });

  it('loads the app shell with the network off; /maintenance-result and the API are not served from the cache', async () => {
    const page = await openApp();
    await page.evaluate(async () => navigator.serviceWorker.ready);
    await context.setOffline(true);
    try {
      await page.goto('/maintenance?device=SP240001');
      await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
      expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      await screenshot(page, 'field-app-offline-390');
      expect(await seriousAxe(page)).toEqual([]);
      const result = await context.newPage();
      const failed = await result.goto('/maintenance-result').then(
        () => null,
        (e: Error) => e.message,
      );
      expect(failed).toMatch(/ERR_INTERNET_DISCONNECTED/);
      await result.close();
    } finally {
      await context.setOffline(false);
    }
    await page.setViewportSize(TABLET);
    await openApp();
    await screenshot(page, 'field-app-list-820');
  });

  it('three records made without signal wait, counted, and are sent once when the network returns, shown once in /maintenance-result', async () => {
    const page = await openApp();
    await page.setViewportSize(PHONE);
    const marker = `offline-${Date.now()}`;
    const cards = page.getByTestId('maintenance-device');
    await context.setOffline(true);
    try {
      for (let i = 0; i < 3; i++) {
        const card = cards.nth(i);
        await card.getByRole('button', { name: /^Record work on/ }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByLabel('Repaired').check();
        await dialog.getByLabel('Note (optional)').fill(`${marker} ${i}`);
        await dialog.getByRole('button', { name: 'Save' }).click();
        await dialog.waitFor({ state: 'hidden' });
      }
      await expect
        .poll(() => page.getByTestId('waiting-count').textContent())
        .toBe('3 records wait to be sent: they go when the signal returns.');
      await screenshot(page, 'field-app-waiting-390');
      expect(await seriousAxe(page)).toEqual([]);
    } finally {
      await context.setOffline(false);
    }
    // No tap: the browser's 'online' event sends them.
    await expect.poll(() => page.getByTestId('waiting-count').textContent(), { timeout: 20_000 }).toBe('Every record is sent.');
    const token = portal.harness.config.maintenanceToken;
    const records = (await (
      await page.request.get('/api/v1/maintenanceRecords?limit=500', { headers: { Authorization: `Token ${token}` } })
    ).json()) as { note: string }[];
    expect(
      records
        .filter((r) => r.note.startsWith(marker))
        .map((r) => r.note)
        .sort(),
    ).toEqual([0, 1, 2].map((i) => `${marker} ${i}`));
    await page.goto('/maintenance-result');
    await page.getByTestId('maintenance-record').first().waitFor();
    expect(await page.getByTestId('maintenance-record').filter({ hasText: marker }).count()).toBe(3);
  });
});
