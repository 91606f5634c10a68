/**
 * /status of a fleet too large to list whole (issue 46): more than STATUS_LIST_LIMIT devices, so the report
 * lists its counties with the server's counts (GET /api/v1/statusCounts) and reads a county's devices when
 * its button is pressed. The demo fleet gets 2,100 more devices, copies of one of its own on its site, in
 * this file's own portal. Screenshots at 1280, 820 and 390 px; axe.
 */
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { devices } from '../../server/src/db/schema.ts';
import { DESKTOP, TABLET, screenshot, seriousAxe, startE2E, type E2E } from './browser.ts';
import { apiTokens, startPortalPushes } from './server.ts';

let e2e: E2E;
let rt: Awaited<ReturnType<typeof startPortalPushes>>;
const tokens: Record<string, string> = {};
const DISTRIBUTOR = 'distributor@demo.test';
const ADDED = 2_100;
beforeAll(async () => {
  e2e = await startE2E();
  // The push server, with the cards' period short enough for a test (the same as reports.test.ts's /status).
  rt = await startPortalPushes(e2e.portal, { device: 10_000, simLog: 15_000, deviceCards: 3_000, overview: 3_000 });
  Object.assign(tokens, await apiTokens(e2e.portal, [DISTRIBUTOR]));
  const db = e2e.portal.harness.database.db;
  const [model] = await db.select().from(devices).where(eq(devices.serial, 'SP240001'));
  const { id: _id, ...copy } = model!;
  for (let from = 0; from < ADDED; from += 500)
    await db.insert(devices).values(
      Array.from({ length: Math.min(500, ADDED - from) }, (_, at) => ({
        ...copy,
        serial: `ZZ${String(from + at).padStart(6, '0')}`,
        label: `Copy ${from + at}`,
        number: 100 + from + at,
      })),
    );
}, 120_000);
afterAll(async () => {
  await e2e?.closeClients();
  await rt?.close().catch(() => undefined);
  await e2e?.close();
});
afterEach(async () => {
  await e2e.closeContexts();
});

const count = (page: import('playwright-core').Page, testId: string, key: string, nth = 0) =>
  page.getByTestId(testId).nth(nth).locator(`[data-count="${key}"]`).getAttribute('data-value').then(Number);

describe('/status of a fleet too large to list whole', () => {
  it("lists counties with the server's counts, a county's devices when asked, live and in order; axe clean at three widths", async () => {
    const page = await e2e.openSignedIn(DISTRIBUTOR, '/status', { viewport: DESKTOP, timezoneId: 'Asia/Tokyo' });
    const counties = page.getByTestId('status-county');
    await counties.first().waitFor({ timeout: 20_000 });
    const total = await count(page, 'status-total', 'total');
    // Over STATUS_LIST_LIMIT (client/src/pages/status/model.ts: 2,000).
    expect(total).toBeGreaterThan(2_000);
    expect(await page.getByTestId('status-by-county').innerText()).toContain('too many to list at once');
    // No device row until a county is opened; the sections add up to the summary.
    expect(await page.locator('tr[data-serial]').count()).toBe(0);
    const sections = await counties.count();
    let sum = 0;
    for (let at = 0; at < sections; at++) sum += await count(page, 'status-county-counts', 'total', at);
    expect(sum).toBe(total);
    await screenshot(page, 'status-large-closed');
    expect(await seriousAxe(page, 'body')).toEqual([]);

    // The county of the copies, the largest: its button names how many devices it shows.
    let biggest = 0;
    let bigAt = 0;
    for (let at = 0; at < sections; at++) {
      const n = await count(page, 'status-county-counts', 'total', at);
      if (n > biggest) [biggest, bigAt] = [n, at];
    }
    expect(biggest).toBeGreaterThan(ADDED);
    const county = counties.nth(bigAt);
    const open = county.getByRole('button', { name: `Show the ${biggest.toLocaleString('en-US')} devices` });
    expect(await open.getAttribute('aria-expanded')).toBe('false');
    await open.click();
    // Read page after page, then drawn 500 at a time with a button for more.
    await expect.poll(() => county.getAttribute('data-listing'), { timeout: 30_000 }).toBe('open');
    expect(await county.locator('tr[data-serial]').count()).toBe(500);
    await county.getByRole('button', { name: /^Show 500 more of [\d,]+$/ }).click();
    expect(await county.locator('tr[data-serial]').count()).toBe(1_000);
    // The county's counts are now its devices' own: the same total as the server counted.
    expect(await count(page, 'status-county-counts', 'total', bigAt)).toBe(biggest);
    expect(await county.getByRole('button', { name: 'Hide the devices' }).getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'status-large-open');
    expect(await seriousAxe(page, 'body')).toEqual([]);

    // Live: a device of the open county paused elsewhere shows paused, and the counts follow.
    await expect.poll(() => page.getByTestId('status-live').getAttribute('data-live'), { timeout: 15_000 }).toBe('true');
    const paused = await count(page, 'status-county-counts', 'paused', bigAt);
    const serial = 'ZZ000000';
    // Its card watched, and polled once since (the poll it is diffed against), before the change.
    await expect.poll(async () => (await rt.registry.watched('deviceCards')).includes(serial), { timeout: 30_000 }).toBe(true);
    const polls = rt.counters.total('deviceCards');
    await expect.poll(() => rt.counters.total('deviceCards'), { timeout: 15_000 }).toBeGreaterThan(polls);
    const pause = await fetch(`${e2e.portal.baseURL}/api/v1/setPauseDevice/${serial}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Token ${tokens[DISTRIBUTOR]}` },
      body: JSON.stringify({ isPause: true }),
    });
    expect(pause.status).toBe(200);
    await expect.poll(() => count(page, 'status-county-counts', 'paused', bigAt), { timeout: 15_000 }).toBe(paused + 1);
    await expect.poll(() => county.locator(`tr[data-serial="${serial}"]`).innerText()).toContain('Paused');

    // Hidden again: the rows go, the button says so.
    await county.getByRole('button', { name: 'Hide the devices' }).click();
    expect(await county.locator('tr[data-serial]').count()).toBe(0);

    for (const [name, viewport] of [
      ['tablet', TABLET],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      await page.setViewportSize(viewport);
      await open.click();
      await expect.poll(() => county.getAttribute('data-listing'), { timeout: 30_000 }).toBe('open');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `status-large-${name}`);
      await county.getByRole('button', { name: 'Hide the devices' }).click();
    }
  });
});
