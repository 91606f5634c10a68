/**
 * What a customer tripped over (issue 42), screen by screen at 1440, 1024 and 390 px: a selected county
 * is fitted beside the dashboard, not under it; the dashboard's header is opaque (no town names through
 * it); every device of a site has its label at the site's zoom; /status, the SIM calendar and the device
 * menu fit a phone or a tablet; an empty sign-up names every blank field. Screenshots in tests/.artifacts,
 * axe on each screen.
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mapData, screenshot, seriousAxe, signInToMap, signUpTab, startE2E, tokenCookie, type E2E } from './browser.ts';

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

const WIDE = { width: 1440, height: 900 };
const TABLET = { width: 1024, height: 768 };
const PHONE = { width: 390, height: 844 };

type Device = {
  serial: string;
  label: string | null;
  location: { lat: number; lng: number } | null;
  location_id: number | null;
  location_group: number | null;
};
type Hooked = {
  __fleetMap: { project(l: [number, number]): { x: number; y: number }; jumpTo(o: object): void; getContainer(): HTMLElement };
};

/** A signed-in map page whose MapLibre map the test reads (offline-map.tsx hands it over only with this flag). */
async function hookedMap(viewport: { width: number; height: number }, email = 'distributor@demo.test'): Promise<Page> {
  const page = await e2e.openPage(viewport, 'about:blank');
  await page.addInitScript(() => {
    (window as unknown as { __fleetMapHook: boolean }).__fleetMapHook = true;
  });
  await page.goto('/');
  await signInToMap(page, email);
  return page;
}

async function devices(page: Page): Promise<Device[]> {
  const token = (await tokenCookie(page))?.value;
  const answer = await page.request.get('/api/v1/device', { headers: { Authorization: `Token ${token}` } });
  return ((await answer.json()) as Device[]).filter((d) => d.location !== null);
}

/** Where these places are on screen (viewport px). */
const onScreen = (page: Page, places: { lat: number; lng: number }[]) =>
  page.evaluate((at) => {
    const map = (window as unknown as Hooked).__fleetMap;
    const origin = map.getContainer().getBoundingClientRect();
    return at.map((p) => {
      const xy = map.project([p.lng, p.lat]);
      return { x: xy.x + origin.left, y: xy.y + origin.top };
    });
  }, places);

const noSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe('the map screen', () => {
  it.each([WIDE, TABLET])('fits a selected county beside the dashboard, not under it, at $width px', async (viewport) => {
    const page = await hookedMap(viewport);
    const placed = await devices(page);
    // The county with the most sites (Orleans Parish: its city lies west, where the 400 px panel is).
    const sites = new Map<number, Set<number>>();
    for (const d of placed)
      if (d.location_id !== null && d.location_group !== null)
        sites.set(d.location_id, (sites.get(d.location_id) ?? new Set()).add(d.location_group));
    const county = [...sites].sort((a, b) => b[1].size - a[1].size)[0]![0];
    const inCounty = placed.filter((d) => d.location_id === county);
    await page.getByRole('tab', { name: 'DEVICE LIST' }).click();
    await page.locator(`button[data-county="${county}"]`).click();
    await expect.poll(async () => (await mapData(page)).center, { timeout: 10_000 }).not.toBe(`30.00000,-90.26000`);
    await page.waitForTimeout(800);
    const panels = await page.evaluate(() =>
      [...document.querySelectorAll('[data-map-cover] > *')]
        .map((el) => el.getBoundingClientRect().toJSON() as DOMRect)
        .filter((r) => r.width > 0 && r.height > 0),
    );
    expect(panels.length).toBeGreaterThanOrEqual(2);
    const points = await onScreen(
      page,
      inCounty.map((d) => d.location!),
    );
    const covered = points.filter((p) => panels.some((r) => p.x >= r.left && p.x <= r.right && p.y >= r.top && p.y <= r.bottom));
    const outside = points.filter((p) => p.x < 0 || p.y < 0 || p.x > viewport.width || p.y > viewport.height);
    expect({ covered: covered.length, outside: outside.length, of: points.length }).toEqual({
      covered: 0,
      outside: 0,
      of: inCounty.length,
    });
    await screenshot(page, `county-fit-${viewport.width}`);
    expect(await seriousAxe(page)).toEqual([]);
  });

  it("keeps town names from showing through the dashboard's header: the panel is opaque and on top", async () => {
    const page = await hookedMap(WIDE);
    const header = page.getByTestId('dashboard-panel').locator('header').first();
    const look = await header.evaluate((el) => {
      // The first painted background from the header up to the panel.
      let node: HTMLElement | null = el as HTMLElement;
      let background = 'transparent';
      while (node) {
        const color = getComputedStyle(node).backgroundColor;
        if (color !== 'rgba(0, 0, 0, 0)' && color !== 'transparent') {
          background = color;
          break;
        }
        if (node.dataset.testid === 'dashboard-panel') break;
        node = node.parentElement;
      }
      const r = el.getBoundingClientRect();
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return { background, onTop: !!top && el.closest('[data-testid="dashboard-panel"]')!.contains(top) };
    });
    expect(look.onTop).toBe(true);
    // rgb(...) is opaque; rgba(..., 0.94) let the town names under it show through.
    expect(look.background).toMatch(/^rgb\(/);
  });

  it("labels every device of a site at the site's zoom (15), the biggest site included", async () => {
    for (const viewport of [WIDE, PHONE]) {
      const page = await hookedMap(viewport);
      await page.getByRole('button', { name: 'Collapse the dashboard' }).click();
      const placed = await devices(page);
      const bySite = new Map<number, Device[]>();
      for (const d of placed)
        if (d.location_group !== null) bySite.set(d.location_group, [...(bySite.get(d.location_group) ?? []), d]);
      const [, site] = [...bySite].sort((a, b) => b[1].length - a[1].length)[0]!;
      expect(site.length).toBeGreaterThanOrEqual(7);
      const { lat, lng } = site[0]!.location!;
      await page.evaluate(({ lat, lng }) => (window as unknown as Hooked).__fleetMap.jumpTo({ center: [lng, lat], zoom: 14 }), {
        lat,
        lng,
      });
      await expect.poll(async () => (await mapData(page)).zoom).toBe('15.00');
      const labelled = () =>
        page
          .locator('[data-testid="fleet-map"] [data-serial]')
          .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.serial));
      const unlabelled = async () => {
        const shown = await labelled();
        return site.map((d) => d.serial).filter((s) => !shown.includes(s));
      };
      await expect.poll(unlabelled, { timeout: 15_000 }).toEqual([]);
      // Each label readable: whole, on the window, and no two overlapping.
      const serials = site.map((d) => d.serial);
      const boxes = await page.locator('[data-testid="fleet-map"] [data-serial]').evaluateAll(
        (els, wanted) =>
          els
            .filter((el) => wanted.includes((el as HTMLElement).dataset.serial!))
            .map((el) => {
              const r = el.getBoundingClientRect();
              return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, serial: (el as HTMLElement).dataset.serial };
            }),
        serials,
      );
      expect(boxes).toHaveLength(site.length);
      for (const [i, a] of boxes.entries()) {
        expect(a.left >= 0 && a.right <= viewport.width && a.top >= 0 && a.bottom <= viewport.height, JSON.stringify(a)).toBe(
          true,
        );
        for (const b of boxes.slice(i + 1))
          expect(
            a.right <= b.left + 0.5 || b.right <= a.left + 0.5 || a.bottom <= b.top + 0.5 || b.bottom <= a.top + 0.5,
            JSON.stringify([a, b]),
          ).toBe(true);
      }
      await page.waitForTimeout(400);
      await screenshot(page, `site-labels-zoom15-${viewport.width}`);
      expect(await seriousAxe(page)).toEqual([]);
    }
  });
});

describe('small screens', () => {
  it('/status fits a 390 px phone: the page does not scroll sideways, each county table scrolls in a focusable region', async () => {
    for (const viewport of [WIDE, TABLET, PHONE]) {
      const page = await e2e.openSignedIn('distributor@demo.test', '/status', { viewport });
      await page.getByTestId('status-county').first().waitFor({ timeout: 20_000 });
      expect(await noSideways(page)).toBe(0);
      const region = page.getByRole('region', { name: /^Devices in / }).first();
      expect(await region.getAttribute('tabindex')).toBe('0');
      // Every column is reachable: scrolled to its end, the region shows the last header.
      await region.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
      const last = await region.locator('thead th').last().boundingBox();
      const box = (await region.boundingBox())!;
      expect(last!.x + last!.width).toBeLessThanOrEqual(box.x + box.width + 1);
      await screenshot(page, `status-${viewport.width}`);
      expect(await seriousAxe(page)).toEqual([]);
    }
  });

  it("the SIM calendar keeps Sunday inside its card at tablet width, and a phone's device menu shows all 8 sections", async () => {
    const probe = await hookedMap(WIDE);
    const target = (await devices(probe)).find((d) => d.location_group !== null)!;
    await probe.close();
    for (const viewport of [TABLET, WIDE, PHONE]) {
      const page = await e2e.openSignedIn('distributor@demo.test', `/?device=${target.serial}&section=sim`, { viewport });
      const panel = page.getByTestId('device-panel');
      const grid = panel.getByRole('grid');
      await expect.poll(() => grid.locator('button').count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(28);
      const fit = await grid.evaluate((el) => {
        const card = el.parentElement!.getBoundingClientRect();
        const heads = [...el.querySelectorAll('[role="columnheader"]')].map((h) => h.getBoundingClientRect());
        const days = [...el.querySelectorAll('button')].map((b) => b.getBoundingClientRect());
        return {
          sunday: heads[6]!.right,
          right: card.right,
          widest: Math.max(...days.map((d) => d.right)),
          overflow: el.scrollWidth - el.clientWidth,
        };
      });
      expect(fit.sunday).toBeLessThanOrEqual(fit.right + 0.5);
      expect(fit.widest).toBeLessThanOrEqual(fit.right + 0.5);
      expect(fit.overflow).toBeLessThanOrEqual(0);
      expect(await noSideways(page)).toBe(0);
      // Every section of the menu is on screen and whole, none behind a sideways scroll.
      const items = await panel
        .getByRole('navigation', { name: 'Device sections' })
        .getByRole('button')
        .evaluateAll((els) =>
          els.map((el) => ({
            ...el.getBoundingClientRect().toJSON(),
            cut: el.scrollWidth > el.clientWidth,
            name: el.textContent,
          })),
        );
      expect(items).toHaveLength(8);
      const menu = await panel
        .getByRole('navigation', { name: 'Device sections' })
        .locator('ul')
        .evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(menu).toBeLessThanOrEqual(0);
      for (const item of items) {
        expect(item.left >= 0 && item.right <= viewport.width && item.bottom <= viewport.height, item.name!).toBe(true);
        expect(item.cut, item.name!).toBe(false);
      }
      await screenshot(page, `device-panel-sim-${viewport.width}`);
      expect(await seriousAxe(page, '[data-testid="device-panel"]')).toEqual([]);
    }
  });
});

describe('sign up', () => {
  it('an empty Sign Up names every blank required field and marks each', async () => {
    for (const viewport of [WIDE, TABLET, PHONE]) {
      const page = await e2e.openPage(viewport);
      await signUpTab(page).click();
      await page.getByLabel('Name', { exact: true }).waitFor();
      await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
      const button = page.locator('button[data-result="failure"]');
      await expect.poll(() => button.textContent()).toBe('Sign Up Fail : Name, Company, Email and Password are required.');
      for (const label of ['Name', 'Company', 'Email', 'Password'])
        expect(await page.getByLabel(label, { exact: true }).getAttribute('aria-invalid'), label).toBe('true');
      expect(await page.getByLabel('Mobile Phone Number (optional)', { exact: true }).getAttribute('aria-invalid')).toBeNull();
      await page.getByLabel('Company', { exact: true }).fill('Acme');
      expect(await page.getByLabel('Company', { exact: true }).getAttribute('aria-invalid')).toBeNull();
      expect(await noSideways(page)).toBe(0);
      await screenshot(page, `sign-up-empty-${viewport.width}`);
      expect(await seriousAxe(page)).toEqual([]);
    }
  });
});
