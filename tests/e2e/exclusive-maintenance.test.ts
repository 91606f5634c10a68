/**
 * /exclusive-management and the maintenance pages in a real browser (issue 15): a distributor assigns and
 * removes a partner's exclusive devices through the searchable picker (each answer shown, a failed call
 * too) and the API agrees; partners and clients get a clear 'not available' state. /maintenance asks for
 * the maintenance credential (a wrong one is refused in words), lists the devices soonest to run dry first
 * as the API orders them, records work, and also opens from a link's fragment; /maintenance-result shows
 * the work in the site's zone and lets a distributor rotate the credential. axe on each screen and dialog;
 * screenshots at 1280 and 820 in tests/.artifacts.
 */
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { MaintenanceDevice, PartnerUser } from '@fleet/shared';
import {
  DESKTOP,
  fleetMap,
  recordResults,
  resultText,
  screenshot,
  seriousAxe,
  signIn,
  startE2E,
  TABLET,
  type E2E,
} from './browser.ts';
import { apiToken } from './server.ts';

let e2e: E2E;
let distributorToken = '';

beforeAll(async () => {
  e2e = await startE2E();
  distributorToken = await apiToken(e2e.portal, 'distributor@demo.test');
});
afterAll(async () => {
  await e2e?.close();
});
afterEach(async () => {
  await e2e.closeContexts();
});

const api = {
  get: async <T>(path: string, token = distributorToken) =>
    (await request(e2e.portal.harness.app).get(path).set('Authorization', `Token ${token}`)).body as T,
};
const partnerSerials = async (email: string) =>
  (await api.get<PartnerUser[]>('/api/v1/allUser')).find((u) => u.email === email)!.exclusive_device_serials;

/** The serials the map was handed pins for (pins-layer.tsx reads them out on demand), sorted. */
const pinSerials = (page: Page) =>
  fleetMap(page).evaluate((el) => ((el as HTMLElement & { readPinSerials?: () => string[] }).readPinSerials?.() ?? []).sort());

/**
 * A market-partner user's map and Total Devices list, opened as a returning user: the serials of its pins
 * and of the list's cards, sorted.
 */
async function partnerView(email: string) {
  const page = await e2e.openSignedIn(email, '/');
  await page.locator('[data-testid="fleet-map"][data-pin-count]').waitFor({ timeout: 30_000 });
  await page.getByTestId('tile-total').click();
  await page.getByRole('heading', { name: 'Total Devices', level: 3 }).waitFor();
  // The list draws only the cards in view: it is read while scrolled through, until every position
  // of the count it shows (loaded devices) has been seen.
  await page.getByTestId('filter-count').waitFor();
  const total = Number(await page.getByTestId('filter-count').getAttribute('data-count'));
  const list = page.getByRole('list', { name: 'Total Devices' });
  const seen = new Map<string, string>();
  await expect
    .poll(
      async () => {
        const rows = await list
          .locator(':scope > [role="listitem"]')
          .evaluateAll((els) =>
            els.map((el) => [
              el.getAttribute('aria-posinset') ?? '',
              el.querySelector<HTMLElement>('[data-serial]')?.dataset.serial ?? '',
            ]),
          );
        for (const [position, serial] of rows) if (serial) seen.set(position!, serial);
        await list.locator('..').evaluate((el) => el.scrollBy(0, el.clientHeight));
        return seen.size;
      },
      { timeout: 15_000 },
    )
    .toBe(total);
  const cards = [...seen.values()].sort();
  return { pins: await pinSerials(page), cards };
}

/** The page's reads of the whole device list (GET /api/v1/device without ?serials=), which it must never make. */
const wholeListReads = new WeakMap<Page, string[]>();

async function openExclusive(email: string, viewport = DESKTOP) {
  const page = await e2e.openPage(viewport, '/exclusive-management');
  const reads: string[] = [];
  wholeListReads.set(page, reads);
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname === '/api/v1/device' && !url.searchParams.has('serials')) reads.push(url.pathname + url.search);
  });
  await signIn(page, email);
  await page.getByRole('heading', { name: 'Market partner management', level: 1 }).waitFor({ timeout: 20_000 });
  // Its result popups close themselves after 1.5 s: the page records each one (resultText reads it).
  await recordResults(page);
  return page;
}

describe('/exclusive-management', () => {
  it("shows partner companies grouped ignoring case, with each user's devices as the API has them", async () => {
    const page = await openExclusive('distributor@demo.test');
    const companies = page.getByRole('navigation', { name: 'Market-partner companies' });
    // Named as its oldest account writes it, whatever the newer one typed.
    await companies.getByRole('button', { name: /Big Easy Events/ }).waitFor();
    // 'Big Easy Events' and 'big easy events' are one company of two users.
    expect(await companies.getByRole('button', { name: /Big Easy Events/i }).count()).toBe(1);
    await expect(companies.getByRole('button', { name: /Big Easy Events/ }).textContent()).resolves.toMatch(/2 users/);
    const pat = page.locator('[data-testid="partner-user"][data-email="partner@demo.test"]');
    await pat.getByRole('table').waitFor();
    const shown = await pat.locator('tbody tr td:nth-child(2)').allTextContents();
    expect(shown.sort()).toEqual([...(await partnerSerials('partner@demo.test'))].sort());
    // Each row has its device's name and address, read by serial (issue 46: not from the whole list).
    const listed = await api.get<{ serial: string; label: string; address: string }[]>(
      `/api/v1/device?serials=${shown.join(',')}`,
    );
    expect(listed.length).toBeGreaterThan(0);
    for (const d of listed) {
      const row = pat.locator('tbody tr').filter({ has: page.getByRole('cell', { name: d.serial, exact: true }) });
      await expect.poll(() => row.locator('td').nth(2).textContent()).toBe(d.address);
      await expect(row.locator('td').first().textContent()).resolves.toBe(d.label || 'NoName');
    }
    expect(wholeListReads.get(page)).toEqual([]);
    expect(await seriousAxe(page)).toEqual([]);
    await screenshot(page, 'exclusive-management-1280');
  });

  it('assigns a device through the searchable picker and removes it, each answered, the API agreeing', async () => {
    const page = await openExclusive('distributor@demo.test');
    const mine = new Set(await partnerSerials('partner@demo.test'));
    // A placed device (it has a pin) of no partner yet.
    const devices =
      await api.get<{ serial: string; label: string; address: string; location: unknown; market_partners: unknown[] }[]>(
        '/api/v1/device',
      );
    const target = devices.find((d) => !mine.has(d.serial) && d.label && d.location && d.market_partners.length === 0)!;
    expect(target).toBeTruthy();
    const pat = page.locator('[data-testid="partner-user"][data-email="partner@demo.test"]');
    await pat.getByRole('button', { name: 'Add devices for Pat Partner' }).click();
    const picker = page.getByRole('dialog', { name: 'Add devices for Pat Partner' });
    await picker.waitFor();
    // Searching by serial narrows the list to that device; ticking it enables Add.
    // (The server searches, a page at a time: the list follows the typing once it has settled.)
    await picker.getByLabel('Search devices').fill(target.serial.toLowerCase());
    await expect.poll(() => picker.getByRole('checkbox').count()).toBe(1);
    await expect(picker.getByRole('status').textContent()).resolves.toBe('1 device');
    // The search covers the address: the target's street finds it among the devices there.
    const street = target.address.split(',')[0]!;
    const searched = page.waitForResponse(
      (res) =>
        new URL(res.url()).pathname === '/api/v1/devicePage' &&
        new URL(res.url()).searchParams.get('search') === street.toUpperCase(),
    );
    await picker.getByLabel('Search devices').fill(street.toUpperCase());
    const found = (await (await searched).json()) as { items: { serial: string; address: string }[] };
    expect(found.items.map((d) => d.serial)).toContain(target.serial);
    expect(found.items.every((d) => d.address.toLowerCase().includes(street.toLowerCase()))).toBe(true);
    await picker.locator(`[aria-label="Devices"] li:has-text("${target.serial}")`).waitFor();
    await picker.getByLabel('Search devices').fill(target.serial.toLowerCase());
    await expect.poll(() => picker.getByRole('checkbox').count()).toBe(1);
    await picker.getByRole('checkbox').check();
    expect(await seriousAxe(page, 'dialog[open]')).toEqual([]);
    await screenshot(page, 'exclusive-picker-1280');

    // A failed call says why and keeps the choice.
    await page.route(
      '**/api/v1/addExclusiveDevices/**',
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"Server down for the test"}' }),
      { times: 1 },
    );
    await picker.getByRole('button', { name: 'Add 1 device' }).click();
    await picker.getByRole('alert').filter({ hasText: 'Server down for the test' }).waitFor();
    await picker.getByRole('button', { name: 'Add 1 device' }).click();
    await resultText(page, 'DEVICES ADDED');
    await pat.getByRole('cell', { name: target.serial, exact: true }).waitFor();
    expect(await partnerSerials('partner@demo.test')).toContain(target.serial);

    // The partner's map and Total Devices list hold exactly its exclusive devices, the new one among them.
    const exclusive = [...(await partnerSerials('partner@demo.test'))].sort();
    expect(await partnerView('partner@demo.test')).toEqual({ pins: exclusive, cards: exclusive });

    await pat.getByRole('button', { name: `Remove ${target.serial} from Pat Partner` }).click();
    const confirm = page.getByRole('dialog', { name: `Remove ${target.serial}?` });
    await confirm.waitFor();
    expect(await seriousAxe(page, 'dialog[open]')).toEqual([]);
    await confirm.getByRole('button', { name: 'Yes, remove' }).click();
    await resultText(page, 'DEVICE REMOVED');
    await expect(pat.getByRole('cell', { name: target.serial, exact: true }).count()).resolves.toBe(0);
    expect(await partnerSerials('partner@demo.test')).not.toContain(target.serial);
    // And the device leaves them.
    const after = [...(await partnerSerials('partner@demo.test'))].sort();
    expect(after).toEqual(exclusive.filter((s) => s !== target.serial));
    expect(await partnerView('partner@demo.test')).toEqual({ pins: after, cards: after });
    // Nothing on the page read the whole device list: the picker read pages, the rows their serials.
    expect(wholeListReads.get(page)).toEqual([]);
  });

  it('reads at tablet width, and keyboard users reach a company with visible focus', async () => {
    const page = await openExclusive('distributor@demo.test', TABLET);
    const north = page.getByRole('button', { name: /Northshore Outdoors/ });
    await north.waitFor();
    await north.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Northshore Outdoors', level: 2 }).waitFor();
    const outline = await north.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).not.toBe('none');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect(await seriousAxe(page)).toEqual([]);
    await screenshot(page, 'exclusive-management-820');
  });

  it('is not available for market-partner users, nor for clients', async () => {
    const partner = await openExclusive('partner@demo.test');
    await partner.getByText('This page is not available for market-partner accounts.').waitFor();
    const client = await openExclusive('client@demo.test');
    await client.getByText(/This page is for distributors/).waitFor();
    expect(await seriousAxe(client)).toEqual([]);
  });
});

describe('/maintenance and /maintenance-result', () => {
  it('asks for the credential, refuses a wrong one, then lists devices soonest to run dry first and records work', async () => {
    const page = await e2e.openPage(DESKTOP, '/maintenance');
    await page.getByRole('heading', { name: 'Maintenance', level: 1 }).waitFor();
    await page.getByLabel('Maintenance credential').fill('WrongCredential1234');
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByRole('alert').filter({ hasText: 'This maintenance credential is not valid' }).waitFor();
    expect(await seriousAxe(page)).toEqual([]);
    await screenshot(page, 'maintenance-credential-1280');

    const token = e2e.portal.harness.config.maintenanceToken;
    await page.getByLabel('Maintenance credential').fill(token);
    await page.getByRole('button', { name: 'Open' }).click();
    await page.getByTestId('maintenance-device').first().waitFor();
    const expected = await api.get<MaintenanceDevice[]>('/api/v1/maintenanceDevices', token);
    expect(expected.length).toBeGreaterThan(0);
    const order = await page
      .getByTestId('maintenance-device')
      .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.serial));
    expect(order).toEqual(expected.map((d) => d.serial));
    // When the list was read is in the sites' zone, named like their visit times, not the technician's own.
    await expect.poll(() => page.getByText(/Updated \d{1,2} \w{3} \d{4} \d{1,2}:\d{2} (AM|PM) (CST|CDT)\./).count()).toBe(1);
    expect(await page.locator('body').innerText()).not.toMatch(/your time|UTC/);
    const firstForecast = await page.getByTestId('maintenance-device').first().getByTestId('forecast').first().textContent();
    expect(firstForecast).toBe(expected[0]!.pumps[0]!.forecast_text);
    expect(firstForecast).toMatch(/at the last .*rate|not enough data|empty now/);
    expect(await page.content()).not.toContain(token);
    expect(await seriousAxe(page)).toEqual([]);
    await screenshot(page, 'maintenance-list-1280');

    const first = expected[0]!;
    await page.getByRole('button', { name: `Record work on ${first.label || first.serial}` }).click();
    // Record work opens the device's screen of the field app (issue 44), where a refill takes a batch: a
    // repair with its note is recorded here (the refill's three taps are tests/e2e/field-app.test.ts's).
    await page.getByRole('button', { name: 'Repaired', exact: true }).click();
    await page.getByLabel('What was repaired').fill('Both pumps topped up');
    expect(await seriousAxe(page)).toEqual([]);
    await screenshot(page, 'maintenance-record-1280');
    await recordResults(page);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await resultText(page, 'WORK RECORDED');
    await page
      .locator(`[data-testid="maintenance-device"][data-serial="${first.serial}"]`)
      .getByText(/Last visit .*: Repaired/)
      .waitFor();
  });

  it('opens from a link with the credential in the fragment, which leaves the address bar; reads at tablet width', async () => {
    const token = e2e.portal.harness.config.maintenanceToken;
    const page = await e2e.openPage(TABLET, `/maintenance#token=${token}`);
    await page.getByTestId('maintenance-device').first().waitFor();
    expect(page.url()).not.toContain(token);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await screenshot(page, 'maintenance-list-820');
  });

  it('/maintenance-result shows the work in the site zone, newest first; a distributor rotates the credential', async () => {
    // A tab of a browser that holds the session, opened at the page (no map load first).
    const page = await e2e.openSignedIn('distributor@demo.test', '/maintenance-result', { viewport: DESKTOP });
    await page.getByRole('heading', { name: 'Maintenance result', level: 1 }).waitFor();
    const rows = page.getByTestId('maintenance-record');
    await rows.first().waitFor();
    await expect(rows.first().textContent()).resolves.toMatch(/Both pumps topped up/);
    // The time carries its zone's name (CST, CDT, EST ... or UTC).
    await expect(rows.first().locator('td').first().textContent()).resolves.toMatch(
      /\d{4} \d{1,2}:\d{2} [AP]M [A-Z]{2,5}|GMT[+-]\d/,
    );
    expect(await seriousAxe(page)).toEqual([]);
    await screenshot(page, 'maintenance-result-1280');

    await page.getByRole('button', { name: 'Make a new credential' }).click();
    const link = await page.getByTestId('maintenance-link').textContent();
    expect(link).toMatch(/\/maintenance#token=[A-Za-z0-9]+$/);
    await page.getByRole('status').filter({ hasText: 'A new maintenance credential is active' }).waitFor();
    const fresh = link!.split('#token=')[1]!;
    expect(
      (
        await request(e2e.portal.harness.app)
          .get('/api/v1/maintenanceDevices')
          .set('Authorization', `Token ${e2e.portal.harness.config.maintenanceToken}`)
      ).status,
    ).toBe(401);
    expect(
      (await request(e2e.portal.harness.app).get('/api/v1/maintenanceDevices').set('Authorization', `Token ${fresh}`)).status,
    ).toBe(200);

    await page.setViewportSize(TABLET);
    expect(await seriousAxe(page)).toEqual([]);
    await screenshot(page, 'maintenance-result-820');
  });

  it('/maintenance-result without a session asks to sign in; a client sees no credential panel', async () => {
    const anonymous = await e2e.openPage(DESKTOP, '/maintenance-result');
    await anonymous.getByText('Sign in to the portal to see what was done.').waitFor();
    const client = await e2e.openSignedIn('client@demo.test', '/maintenance-result', { viewport: DESKTOP });
    await client.getByRole('heading', { name: 'Maintenance result', level: 1 }).waitFor();
    await client
      .getByText(/No maintenance has been recorded yet|Refilled|Repaired|Batch replaced/)
      .first()
      .waitFor();
    expect(await client.getByRole('button', { name: 'Make a new credential' }).count()).toBe(0);
  });
});
