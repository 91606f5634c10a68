import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seriousAxe, signInToMap, startE2E, type E2E } from './browser';

/**
 * The lists of issue 46 in a real browser: a filter list read from GET /api/v1/devicePage a page at a
 * time (pages of 10 here, so the demo fleet has several), loading more as it scrolls, the count and the
 * list size the server's total; keyboard and axe; the county drill-down's site cards. Screenshots at
 * desktop, tablet and phone sizes.
 */
let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.closeClients();
  await e2e?.close();
});
afterEach(async () => {
  await e2e.closeContexts();
});

const SIZES = {
  desktop: { width: 1440, height: 900 },
  tablet: { width: 820, height: 1180 },
  phone: { width: 390, height: 844 },
} as const;
const dashboard = (page: Page) => page.getByTestId('dashboard-panel');
const list = (page: Page) => page.getByTestId('filter-list');

/** Signed in on the map with the filter list's pages cut to `limit` rows; the page reads are counted. */
async function openWithPages(viewport: { width: number; height: number }, limit: number) {
  const page = await e2e.openPage(viewport);
  const reads: string[] = [];
  await page.route('**/api/v1/devicePage?*', async (route) => {
    const url = new URL(route.request().url());
    if (url.searchParams.get('limit') !== '1') url.searchParams.set('limit', String(limit));
    reads.push(url.search);
    await route.continue({ url: url.href });
  });
  await signInToMap(page, 'distributor@demo.test');
  await page.getByTestId('overview').waitFor({ timeout: 20_000 });
  return { page, reads };
}

describe('fleet lists paged by the server (issue 46)', () => {
  it('the Total list loads a page, then the next ones as it scrolls, up to the server total', async () => {
    const { page, reads } = await openWithPages(SIZES.desktop, 10);
    await page.getByTestId('tile-total').click();
    const count = list(page).getByTestId('filter-count');
    await count.waitFor();
    const total = Number(await count.getAttribute('data-count'));
    expect(total).toBeGreaterThan(20);
    const rows = list(page).getByRole('listitem');
    expect(await rows.first().getAttribute('aria-setsize')).toBe(String(total));
    await screenshot(page, 'fleet-lists-total-desktop');
    expect(await seriousAxe(page, '[data-testid="dashboard-panel"]')).toEqual([]);

    // Keyboard: from the search box, Tab reaches the filters and then the first card.
    await list(page).getByPlaceholder('Name or Serial').focus();
    let onCard = false;
    for (let i = 0; i < 8 && !onCard; i += 1) {
      await page.keyboard.press('Tab');
      onCard = await page.evaluate(() => document.activeElement?.hasAttribute('data-serial') ?? false);
    }
    expect(onCard).toBe(true);

    // Scrolling to the end reads the next pages until the last row is the total's.
    const viewport = list(page).locator('[role="list"]').locator('..');
    await expect
      .poll(
        async () => {
          await viewport.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
          return Number(await rows.last().getAttribute('aria-posinset'));
        },
        { timeout: 30_000 },
      )
      .toBe(total);
    expect(reads.filter((r) => r.includes('cursor=')).length).toBeGreaterThanOrEqual(Math.ceil(total / 10) - 1);
  });

  it('a search reads once the text settles and the count is the server’s', async () => {
    const { page, reads } = await openWithPages(SIZES.desktop, 10);
    await page.getByTestId('tile-online').click();
    await list(page).getByTestId('filter-count').waitFor();
    const before = reads.length;
    // Fourteen keystrokes within one task (a fast typist, whatever this host's load): one read.
    await list(page)
      .getByPlaceholder('Name or Serial')
      .evaluate((input: HTMLInputElement, text) => {
        const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
        for (let i = 1; i <= text.length; i += 1) {
          setValue.call(input, text.slice(0, i));
          input.dispatchEvent(new Event('input', { bubbles: true }));
        }
      }, 'no such device');
    await expect.poll(() => list(page).getByText('No devices match.').count()).toBe(1);
    expect(Number(await list(page).getByTestId('filter-count').getAttribute('data-count'))).toBe(0);
    // One search read, for the whole word (the list may also read its next page as it fills the view).
    const searches = reads.slice(before).filter((r) => r.includes('q='));
    expect(searches).toHaveLength(1);
    expect(searches[0]).toContain('q=nosuchdevice');
    expect(searches[0]).toContain('status=online');
  });

  for (const [name, size] of Object.entries(SIZES)) {
    it(`looks right at ${name} size (${size.width}x${size.height}): Total list, county sites`, async () => {
      const { page } = await openWithPages(size, 100);
      await page.getByTestId('tile-warning').click();
      await list(page).getByTestId('filter-count').waitFor();
      await screenshot(page, `fleet-lists-warning-${name}`);
      await page.getByRole('button', { name: 'Back to the dashboard' }).click();
      await dashboard(page).getByRole('tab', { name: 'DEVICE LIST' }).click();
      const county = dashboard(page).locator('button[data-county]').first();
      await county.click();
      await dashboard(page).getByRole('button', { name: 'Show sites' }).click();
      await dashboard(page).locator('button[data-site]').first().waitFor();
      await screenshot(page, `fleet-lists-sites-${name}`);
      expect(await seriousAxe(page, '[data-testid="dashboard-panel"]')).toEqual([]);
    });
  }

  // A quick check of 'opened or searched in < 300 ms' under 4x CPU throttling (issue 46; the bench's own
  // figure is tests/bench's). Logged, not asserted: the demo fleet is small and this host is shared.
  it('times a list opened and searched under a 4x CPU slowdown (median of 5)', async () => {
    const { page } = await openWithPages(SIZES.desktop, 100);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const opened: number[] = [];
    const searched: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const start = Date.now();
      await page.getByTestId('tile-total').click();
      await list(page).locator('button[data-serial]').first().waitFor();
      opened.push(Date.now() - start);
      const serial = (await list(page).locator('button[data-serial]').nth(3).getAttribute('data-serial'))!;
      const typed = Date.now();
      await list(page).getByPlaceholder('Name or Serial').fill(serial);
      await expect.poll(() => list(page).locator('button[data-serial]').count(), { interval: 10 }).toBe(1);
      searched.push(Date.now() - typed);
      await page.getByRole('button', { name: 'Back to the dashboard' }).click();
    }
    console.log(
      `list opened ${median(opened)} ms (${opened.join(', ')}); searched ${median(searched)} ms (${searched.join(', ')}) at 4x`,
    );
    expect(opened).toHaveLength(5);
  });
});
