/**
 * The map screen in a real browser (spec section 2): each demo role lands on the offline map with its
 * devices as pins (counted from the map's source data, not from pixels), the Active Pin toggles hide pin
 * types, zoom, cluster and pin selection, the profile panel's role rules, the pages that open in a new
 * tab, logout, an axe check and screenshots.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fleetMap, mapData, screenshot, signInTab, signInToMap, startE2E, TABLET, DESKTOP, tokenCookie, type E2E } from './browser.ts';

type ApiDevice = { serial: string; location: { lat: number; lng: number } | null; is_pause: boolean; is_warning: boolean };

let e2e: E2E;
beforeAll(async () => {
  e2e = await startE2E();
});
afterAll(async () => {
  await e2e?.close();
});
afterEach(async () => {
  await e2e.closeContexts();
});

/** The placed devices the signed-in user's token sees, straight from the API. */
async function placedDevices(page: Page): Promise<ApiDevice[]> {
  const token = (await tokenCookie(page))?.value;
  const answer = await page.request.get('/api/v1/device', { headers: { Authorization: `Token ${token}` } });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as ApiDevice[]).filter((d) => d.location !== null);
}

const pinCount = async (page: Page) => Number((await mapData(page)).pinCount);

async function settle(page: Page) {
  // Two animation frames after MapLibre reports idle.
  await page.waitForTimeout(400);
}

describe('map screen', () => {
  it.each([
    { email: 'distributor@demo.test', role: 'Distributor', canManage: true, partner: false },
    { email: 'client@demo.test', role: 'Company', canManage: false, partner: false },
    { email: 'partner@demo.test', role: 'Market partner', canManage: true, partner: true },
  ])('signs $email in onto the map with its pins, role rules, and logs out', async ({ email, role, canManage, partner }) => {
    const page = await e2e.openPage();
    await signInToMap(page, email);
    expect(await fleetMap(page).getAttribute('data-map-provider')).toBe('offline');

    const placed = await placedDevices(page);
    expect(placed.length).toBeGreaterThan(0);
    expect(await pinCount(page)).toBe(placed.length);
    expect(await page.getByTestId('user-role').textContent()).toContain(role);

    // Starts at the spec's view: zoom 10 around (30.0, -90.26).
    expect((await mapData(page)).zoom).toBe('10.00');

    // Profile image: User Management for every role but client.
    // force: a client's profile image is aria-disabled, the click must still be tried.
    await page.getByTestId('profile-image').click({ force: true });
    const dialog = page.getByRole('dialog', { name: 'User Management' });
    if (canManage) {
      await dialog.waitFor();
      for (const item of ['Sign Up Request', 'Company', 'SunStop Admin', 'Account Settings', 'Exit']) {
        await dialog.getByRole('button', { name: item, exact: true }).waitFor();
      }
      expect(await dialog.getByRole('button', { name: 'Company', exact: true }).getAttribute('aria-disabled')).toBe('true');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    } else {
      expect(await page.getByTestId('profile-image').getAttribute('aria-disabled')).toBe('true');
      await page.waitForTimeout(300);
      expect(await dialog.count()).toBe(0);
    }

    // /exclusive-management is hidden for market-partner users; /status is there for all.
    expect(await page.getByRole('link', { name: /Status report/ }).getAttribute('target')).toBe('_blank');
    expect(await page.getByTestId('exclusive-management-link').count()).toBe(partner ? 0 : 1);

    // The session survives a reload.
    await page.reload();
    await page.locator('[data-testid="fleet-map"][data-pin-count]').waitFor();

    await page.getByRole('button', { name: 'Logout' }).click();
    await signInTab(page).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await tokenCookie(page)).toBeUndefined();
  });

  it('hides and shows pin types with the Active Pin toggles (paused, warning, synced)', async () => {
    const page = await e2e.openPage();
    await signInToMap(page, 'distributor@demo.test');
    const placed = await placedDevices(page);
    const paused = placed.filter((d) => d.is_pause).length;
    const warning = placed.filter((d) => !d.is_pause && d.is_warning).length;
    expect(paused).toBeGreaterThan(0);
    expect(warning).toBeGreaterThan(0);
    const total = await pinCount(page);
    expect(total).toBe(placed.length);

    const toggle = (name: string) => page.getByTestId('active-pin-panel').getByRole('button', { name: new RegExp(`^${name}`) });
    await toggle('Pause').click();
    expect(await toggle('Pause').getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => pinCount(page)).toBe(total - paused);
    expect(JSON.parse((await mapData(page)).pinCounts ?? '{}').paused).toBe(0);

    await toggle('Warning').click();
    await expect.poll(() => pinCount(page)).toBe(total - paused - warning);
    await toggle('Synced').click();
    await expect.poll(() => pinCount(page)).toBe(0);

    for (const name of ['Pause', 'Warning', 'Synced']) await toggle(name).click();
    await expect.poll(() => pinCount(page)).toBe(total);
    expect(await toggle('Pause').getAttribute('aria-pressed')).toBe('true');
  });

  it('zooms with the buttons (step 1), opens clusters, and selects a pin at zoom 15', async () => {
    const page = await e2e.openPage();
    await signInToMap(page, 'distributor@demo.test');
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await mapData(page)).zoom).toBe('11.00');
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await page.getByRole('button', { name: 'Zoom out' }).click();
    await expect.poll(async () => (await mapData(page)).zoom).toBe('9.00');
    // No labels under zoom 10.
    await settle(page);
    expect((await mapData(page)).labelCount ?? '0').toBe('0');
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect.poll(async () => (await mapData(page)).zoom).toBe('10.00');

    // Clicking clusters zooms in until single pins show, with their labels.
    for (let step = 0; step < 6 && Number((await mapData(page)).renderedPinCount ?? 0) === 0; step++) {
      await expect.poll(async () => (await mapData(page)).biggestCluster).toBeTruthy();
      const [x, y] = (await mapData(page)).biggestCluster!.split(',').map(Number);
      const before = (await mapData(page)).zoom;
      await page.mouse.click(x!, y!);
      await expect.poll(async () => (await mapData(page)).zoom).not.toBe(before);
      await page.waitForTimeout(800);
    }
    await expect.poll(async () => Number((await mapData(page)).labelCount ?? 0)).toBeGreaterThan(0);
    const label = page.locator('[data-testid="fleet-map"] [data-serial]').first();
    const serial = await label.getAttribute('data-serial');
    const box = (await label.boundingBox())!;
    // The pin's body is just above its label.
    await page.mouse.click(box.x + box.width / 2, box.y - 18);
    await expect.poll(async () => (await mapData(page)).selectedSerial).toBe(serial);
    await expect.poll(async () => (await mapData(page)).zoom).toBe('15.00');
  });

  it('opens /status and /exclusive-management in a new tab; market partners cannot use the latter', async () => {
    const page = await e2e.openPage();
    await signInToMap(page, 'distributor@demo.test');
    const [status] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: /Status report/ }).click()]);
    await status.getByRole('heading', { name: 'Status report' }).waitFor();
    const [exclusive] = await Promise.all([page.context().waitForEvent('page'), page.getByTestId('exclusive-management-link').click()]);
    await exclusive.getByRole('heading', { name: 'Market partner management' }).waitFor();
    expect(await exclusive.getByRole('link', { name: 'Back to the map' }).getAttribute('href')).toBe('/');

    const partner = await e2e.openPage();
    await signInToMap(partner, 'partner@demo.test');
    await partner.goto('/exclusive-management');
    await partner.getByText('This page is not available for market-partner accounts.').waitFor();
  });

  it('shows the maintenance pages without a session and without any credential in them', async () => {
    const page = await e2e.openPage(DESKTOP, '/maintenance');
    await page.getByRole('heading', { name: 'Maintenance' }).waitFor();
    expect(await page.getByText('Maintenance access is configured on the server.').count()).toBe(1);
    const token = e2e.portal.harness.config.maintenanceToken;
    expect(token.length).toBeGreaterThan(8);
    expect(await page.content()).not.toContain(token);
    await page.goto('/maintenance-result');
    await page.getByRole('heading', { name: 'Maintenance result' }).waitFor();
  });

  it('opens one realtime connection that retries with backoff, quietly, while no push server answers', async () => {
    const page = await e2e.openPage();
    const consoleErrors: string[] = [];
    const notFound: string[] = [];
    const socketRequests: number[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() === 404) notFound.push(new URL(response.url()).pathname);
    });
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/socket.io/')) socketRequests.push(Date.now());
    });
    await signInToMap(page, 'distributor@demo.test');
    await page.waitForTimeout(4000);
    expect(socketRequests.length).toBeGreaterThan(0);
    // Backoff: a handful of attempts in four seconds, not a tight loop.
    expect(socketRequests.length).toBeLessThan(8);
    // The only console errors are the browser's own lines for a missing /api/v1/clientConfig (treated as
    // "no Google key" until the server has that route).
    expect(notFound.every((pathname) => pathname === '/api/v1/clientConfig')).toBe(true);
    expect(consoleErrors.length).toBeLessThanOrEqual(notFound.length);
  });

  it('shows a live clock: local time with GMT offset and date, ticking', async () => {
    const page = await e2e.openPage();
    await signInToMap(page, 'client@demo.test');
    const clock = page.getByTestId('clock-panel');
    // The offset with its sign, never a bare 'GMT' (the test browser runs in UTC: 'GMT+0').
    expect(await clock.getByTestId('clock-gmt').textContent()).toMatch(/^GMT[+-]\d{1,2}(:\d\d)?$/);
    expect(await clock.getByTestId('clock-date').textContent()).toMatch(/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), \d{1,2} [A-Z][a-z]+ \d{4}$/);
    const first = await clock.getByTestId('clock-time').getAttribute('datetime');
    await expect.poll(() => clock.getByTestId('clock-time').getAttribute('datetime'), { timeout: 3000 }).not.toBe(first);
  });

  it('has no serious or critical axe violation on the map screen and its User Management dialog', async () => {
    const page = await e2e.openPage();
    await signInToMap(page, 'distributor@demo.test');
    await settle(page);
    const serious = async () => {
      const { violations } = await new AxeBuilder({ page }).analyze();
      return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
    };
    expect(await serious()).toEqual([]);
    await page.getByTestId('profile-image').click();
    await page.getByRole('dialog', { name: 'User Management' }).waitFor();
    // The dialog fades in: check the colours a person sees once it has settled, not a blend mid-animation.
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    expect(await serious()).toEqual([]);
  });

  it('keeps every map control keyboard-reachable with a visible focus ring', async () => {
    const page = await e2e.openPage();
    await signInToMap(page, 'distributor@demo.test');
    const seen = new Map<string, boolean>();
    for (let step = 0; step < 14; step++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        return { name: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '', ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0 };
      });
      seen.set(focused.name, focused.ring);
    }
    // The profile button's name starts with the initials it shows ('DD, Open User Management'), so its
    // accessible name contains its visible text (axe label-content-name-mismatch).
    for (const name of ['Zoom in', 'Zoom out', 'Open User Management', 'Logout']) {
      const key = [...seen.keys()].find((k) => k === name || k.endsWith(`, ${name}`));
      expect(key !== undefined && seen.get(key), `${name} focused with a ring`).toBe(true);
    }
    expect([...seen.keys()].some((name) => name.startsWith('Pause'))).toBe(true);
  });

  it.each([
    { name: '1280x800', viewport: DESKTOP },
    { name: '820x1180', viewport: TABLET },
  ])('renders the map with pins and clusters at $name (tests/.artifacts)', async ({ name, viewport }) => {
    const page = await e2e.openPage(viewport);
    await signInToMap(page, 'distributor@demo.test');
    await expect.poll(async () => Number((await mapData(page)).clusterCount ?? 0), { timeout: 15_000 }).toBeGreaterThan(0);
    await settle(page);
    await screenshot(page, `map-clusters-${name}`);
    // Panels stay inside the window and do not overlap each other.
    const boxes = await Promise.all(['clock-panel', 'active-pin-panel', 'profile-panel'].map((id) => page.getByTestId(id).boundingBox()));
    for (const box of boxes) {
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
      expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
    }
    expect(boxes[1]!.y + boxes[1]!.height).toBeLessThan(boxes[2]!.y);

    for (let step = 0; step < 6 && Number((await mapData(page)).renderedPinCount ?? 0) < 3; step++) {
      const [x, y] = ((await mapData(page)).biggestCluster ?? `${viewport.width / 2},${viewport.height / 2}`).split(',').map(Number);
      await page.mouse.click(x!, y!);
      await page.waitForTimeout(900);
    }
    await settle(page);
    await screenshot(page, `map-pins-${name}`);
  });
});
