/**
 * The device panel and the map as a customer sees them (issue 18), in a real browser whose own time zone
 * (Asia/Tokyo, 15 hours ahead of the demo sites' America/Chicago) differs from the site's, so every
 * date and time check proves the site's zone is used, not the browser's. One check per point, each as the
 * role that meets it; screenshots of the panel sections and the map at zoom 4, 10 and 15.
 */
import AxeBuilder from '@axe-core/playwright';
import { localDateOf } from '@fleet/shared';
import type { BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { latestPage, pageHours, siteDateTime } from '../../client/src/widgets/device-panel/lib/panel-lib.ts';
import { DEMO_STILL_SERIALS } from '../../server/src/seed/demo-data.ts';
import { DESKTOP, mapData, screenshot, signInToMap, startE2E, TABLET, type E2E } from './browser.ts';
import { startPortalPushes } from './server.ts';

const SITE_ZONE = 'America/Chicago';
const BROWSER_ZONE = 'Asia/Tokyo';
const PERIODS = { device: 3_000, simLog: 5_000, deviceCards: 3_000, overview: 5_000 };

let e2e: E2E;
let rt: Awaited<ReturnType<typeof startPortalPushes>>;
const contexts: BrowserContext[] = [];
const tokens: Record<string, string> = {};

beforeAll(async () => {
  e2e = await startE2E();
  rt = await startPortalPushes(e2e.portal, PERIODS);
  for (const email of ['distributor@demo.test', 'client@demo.test', 'partner@demo.test']) {
    tokens[email] = (await request(e2e.portal.harness.app).post('/auth/token/login/').send({ email, password: 'Demo1234' })).body.auth_token;
  }
});
afterAll(async () => {
  await rt?.close().catch(() => undefined);
  await e2e?.close();
});
afterEach(async () => {
  await Promise.all([...contexts.splice(0).map((c) => c.close()), e2e.closeContexts()]);
});

type ApiDevice = {
  serial: string;
  label: string;
  number: number | null;
  location_group: number;
  is_online: boolean;
  is_pause: boolean;
  warning_lists: string[];
  rental: unknown;
  right_pump_type: string;
};
const api = () => request(e2e.portal.harness.app);
async function devices(email = 'distributor@demo.test'): Promise<ApiDevice[]> {
  return ((await api().get('/api/v1/device').set('Authorization', `Token ${tokens[email]}`)).body as ApiDevice[]).filter((d) => d.location_group);
}

/** A page in a browser set to Tokyo time, signed in to the map. */
async function signedIn(email: string, viewport = DESKTOP): Promise<Page> {
  const context = await e2e.browser.newContext({ viewport, baseURL: e2e.portal.baseURL, timezoneId: BROWSER_ZONE });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto('/');
  await signInToMap(page, email);
  return page;
}
/**
 * A returning user opening a device's link: the browser already holds the session cookie the portal's
 * sign-in writes (the signing in itself is tested in auth and map), so the page loads once, straight onto
 * the map with the panel, instead of a sign-in, a map and then the link's second load of both.
 */
async function openPanel(email: string, serial: string, viewport = DESKTOP) {
  const page = await e2e.openSignedIn(email, `/?device=${serial}`, { viewport, timezoneId: BROWSER_ZONE });
  await page.locator('[data-testid="fleet-map"][data-pin-count]').waitFor({ timeout: 30_000 });
  await expect.poll(() => panel(page).getAttribute('data-serial')).toBe(serial);
  return page;
}
const panel = (page: Page) => page.getByTestId('device-panel');
const menu = (page: Page, name: string) => panel(page).getByRole('navigation', { name: 'Device sections' }).getByRole('button', { name });
const dialog = (page: Page) => panel(page).getByTestId('control-dialog');

type DialogPhase = { phase: string; at: number; text: string; alert: string | null };
/** Starts recording, in the page, each phase the device panel's control dialog goes through ('closed' when gone). */
async function recordDialogPhases(page: Page) {
  // A string: the test transform would wrap named inner functions in a helper the page lacks.
  await page.evaluate(`(() => {
    const w = window;
    w.__dialogObserver?.disconnect();
    w.__dialogPhases = [];
    const record = () => {
      const d = document.querySelector('[data-testid="device-panel"] [data-testid="control-dialog"]');
      const phase = d ? d.getAttribute('data-phase') : 'closed';
      const last = w.__dialogPhases[w.__dialogPhases.length - 1];
      if ((last ? last.phase : 'closed') === phase) return;
      w.__dialogPhases.push({ phase, at: performance.now(), text: d ? d.textContent : '', alert: d ? (d.querySelector('[role=alert]')?.textContent ?? null) : null });
    };
    w.__dialogObserver = new MutationObserver(record);
    w.__dialogObserver.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-phase'] });
  })()`);
}
/** The phases recorded since recordDialogPhases, once the dialog has shown `result` and closed again. */
async function dialogPhasesUntilClosed(page: Page, result: string): Promise<DialogPhase[]> {
  const phases = () => page.evaluate('window.__dialogPhases') as Promise<DialogPhase[]>;
  await expect.poll(async () => (await phases()).map((p) => p.phase).join(' '), { timeout: 10_000 }).toMatch(new RegExp(`${result} closed$`));
  return phases();
}
const siteToday = () => localDateOf(Date.now(), SITE_ZONE);

/**
 * Serious or critical axe findings on the whole page. label-content-name-mismatch (a control whose
 * accessible name does not contain its visible text) is experimental in the axe-core installed here
 * (4.13) and on by default in 4.14: it is asked for explicitly, so the check holds for both.
 */
async function axeSerious(page: Page) {
  // One run at a time: axe refuses a second while one is going.
  const all = await new AxeBuilder({ page }).analyze();
  const mismatch = await new AxeBuilder({ page }).withRules(['label-content-name-mismatch']).analyze();
  return [...all.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'), ...mismatch.violations].map(
    (v) => `${v.id}: ${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join(' | ')}`,
  );
}

describe('device panel corrections (browser in Tokyo, sites in Chicago)', () => {
  it('DAILY opens on the site today at the window holding the latest data; WEEKLY and MONTHLY end on the site today (distributor)', async () => {
    const target = (await devices()).find((d) => d.is_online && !DEMO_STILL_SERIALS.includes(d.serial))!;
    const bodies: { filterDateType: string; todayDate: string; endDate: string }[] = [];
    const page = await signedIn('distributor@demo.test');
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/getPumpLog')) bodies.push(r.postDataJSON());
    });
    await page.goto(`/?device=${target.serial}`);
    await expect.poll(() => panel(page).getAttribute('data-serial'), { timeout: 30_000 }).toBe(target.serial);
    await expect.poll(() => panel(page).getByLabel('Day').inputValue(), { timeout: 15_000 }).toBe(siteToday());
    await expect.poll(() => bodies.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(bodies[0]).toMatchObject({ filterDateType: 'DAILY', todayDate: siteToday() });
    // The window shown is the one the answer's latest data falls in, by the site's clock.
    const answer = (await api().post('/api/v1/getPumpLog').set('Authorization', `Token ${tokens['distributor@demo.test']}`).send(bodies[0])).body;
    const expected = pageHours(answer.dispensingDatas, latestPage(answer.dispensingDatas, answer.remainDatas, Date.now()));
    await expect.poll(() => panel(page).getByTestId('analytics-window').textContent(), { timeout: 10_000 }).toBe(expected);
    // The latest-data window never starts in the site's future.
    const siteHour = Number(new Intl.DateTimeFormat('en-US', { timeZone: SITE_ZONE, hour: 'numeric', hourCycle: 'h23' }).format(new Date()));
    expect(Number(expected.slice(0, 2))).toBeLessThanOrEqual(siteHour);
    await expect.poll(() => panel(page).locator('.apexcharts-canvas').count(), { timeout: 15_000 }).toBe(1);
    await screenshot(page, 'panel-corrections-dashboard-tokyo');

    await panel(page).getByRole('button', { name: 'WEEKLY' }).click();
    await expect.poll(() => bodies.at(-1)?.filterDateType).toBe('WEEKLY');
    expect(bodies.at(-1)!.endDate).toBe(siteToday());
    await panel(page).getByRole('button', { name: 'MONTHLY' }).click();
    await expect.poll(() => bodies.at(-1)?.filterDateType).toBe('MONTHLY');
    expect(bodies.at(-1)!.endDate).toBe(siteToday());
    // The date picker's last day is the site's today, not Tokyo's.
    await expect(panel(page).getByLabel('Until').getAttribute('max')).resolves.toBe(siteToday());
  });

  it('one time zone: pending change times and the header in the site zone, named once (distributor)', async () => {
    const target = (await devices()).find((d) => d.is_online && !d.is_pause && !DEMO_STILL_SERIALS.includes(d.serial) && !d.rental)!;
    const page = await openPanel('distributor@demo.test', target.serial);
    const vandalism = panel(page).getByRole('button', { name: 'Anti vandalism', exact: true });
    await expect.poll(() => vandalism.isEnabled(), { timeout: 15_000 }).toBe(true);
    const asked = Date.now();
    await vandalism.click();
    const item = panel(page).locator('li').filter({ hasText: 'Anti vandalism' }).filter({ hasText: 'asked' });
    await expect.poll(() => item.count(), { timeout: 10_000 }).toBe(1);
    const text = (await item.textContent())!;
    // Site time (Chicago), within the minute of the click: never Tokyo's.
    const candidates = [asked - 60_000, asked, asked + 60_000].map((t) => siteDateTime(t, SITE_ZONE));
    expect(candidates.some((c) => text.includes(`asked ${c}`))).toBe(true);
    expect(text).not.toContain(siteDateTime(asked, BROWSER_ZONE));
    // The zone is named once, in the header beside the device clock.
    const whole = (await panel(page).textContent())!;
    expect(whole.split(SITE_ZONE).length - 1).toBe(1);
    await expect(panel(page).getByLabel('Device time').textContent()).resolves.toContain(SITE_ZONE);
    await panel(page).getByRole('button', { name: 'Cancel the Anti vandalism change' }).click();
    await expect.poll(() => item.count()).toBe(0);
  });

  it('control dialog: loading, the result, closed about 1 s later; a failed toggle goes back (distributor)', async () => {
    const target = (await devices()).find((d) => d.is_online && !d.is_pause && !DEMO_STILL_SERIALS.includes(d.serial) && !d.rental)!;
    const page = await openPanel('distributor@demo.test', target.serial);
    const maintenance = panel(page).getByRole('button', { name: 'Maintenance', exact: true });
    await expect.poll(() => maintenance.isEnabled(), { timeout: 15_000 }).toBe(true);
    const was = (await maintenance.getAttribute('aria-pressed')) === 'true';

    // A slow answer: the loading dialog shows while the toggle already shows the value asked for.
    await page.route('**/api/v1/set_device_config/**', async (route) => {
      await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    // The page records each phase of the dialog with its time and text: polling from here could miss a
    // phase that lasts about a second while a loaded machine takes a screenshot.
    await recordDialogPhases(page);
    await maintenance.click();
    await expect.poll(() => dialog(page).getAttribute('data-phase')).toBe('loading');
    await expect(dialog(page).textContent()).resolves.toContain('Saving ...');
    await screenshot(page, 'panel-corrections-control-loading');
    const phases = await dialogPhasesUntilClosed(page, 'success');
    expect(phases.map((p) => p.phase)).toEqual(['loading', 'success', 'closed']);
    expect(phases[1]!.text).toContain(was ? 'Maintenance deactivated' : 'Maintenance activated');
    const closedAfter = phases[2]!.at - phases[1]!.at;
    expect(closedAfter).toBeGreaterThan(500);
    expect(closedAfter).toBeLessThan(2_500);
    expect(await maintenance.getAttribute('aria-pressed')).toBe(was ? 'false' : 'true');
    // Undo the change (it is pending for the device).
    await page.unroute('**/api/v1/set_device_config/**');
    await panel(page).getByRole('button', { name: 'Cancel the Maintenance change' }).click();
    await expect.poll(() => maintenance.getAttribute('aria-pressed')).toBe(was ? 'true' : 'false');
    await expect.poll(() => dialog(page).count(), { timeout: 5_000 }).toBe(0);

    // A refused change: the error dialog, and the toggle goes back.
    const vandalism = panel(page).getByRole('button', { name: 'Anti vandalism', exact: true });
    const vWas = await vandalism.getAttribute('aria-pressed');
    await page.route('**/api/v1/set_device_config/**', async (route) => {
      await new Promise((r) => setTimeout(r, 400));
      await route.fulfill({ status: 500, json: { detail: 'boom' } });
    });
    await recordDialogPhases(page);
    await vandalism.click();
    await expect.poll(() => vandalism.getAttribute('aria-pressed')).toBe(vWas === 'true' ? 'false' : 'true');
    const refused = await dialogPhasesUntilClosed(page, 'danger');
    expect(refused.map((p) => p.phase)).toEqual(['loading', 'danger', 'closed']);
    expect(refused[1]!.alert).toBe('Something went wrong.');
    expect(await vandalism.getAttribute('aria-pressed')).toBe(vWas);
    expect(await dialog(page).count()).toBe(0);
  });

  it('rental plan: after Save the status line, the message and the RENTAL marker agree; multi-select keeps the current device (distributor)', async () => {
    const list = await devices();
    const groups = new Map<number, ApiDevice[]>();
    for (const d of list) if (!d.rental && !DEMO_STILL_SERIALS.includes(d.serial)) groups.set(d.location_group, [...(groups.get(d.location_group) ?? []), d]);
    const [target, other] = [...groups.values()].find((g) => g.length >= 2)!;
    const page = await openPanel('distributor@demo.test', target!.serial);
    await menu(page, 'Device Subscription').click();
    expect(new URL(page.url()).searchParams.get('section')).toBe('subscription');
    const status = panel(page).getByTestId('rental-status');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe('No rental plan on this device.');
    // A new plan starts on the site's today.
    await expect(panel(page).getByLabel('Start Date').inputValue()).resolves.toBe(siteToday());

    await panel(page).getByRole('button', { name: 'Select devices' }).click();
    const cards = panel(page).getByRole('complementary', { name: 'Devices at this site' });
    const current = cards.locator(`[data-serial="${target!.serial}"]`);
    const second = cards.locator(`[data-serial="${other!.serial}"]`);
    await expect(current.getAttribute('role')).resolves.toBe('checkbox');
    await expect(current.getAttribute('aria-checked')).resolves.toBe('true');
    await expect(current.getAttribute('aria-disabled')).resolves.toBe('true');
    await current.click({ force: true });
    await expect(current.getAttribute('aria-checked')).resolves.toBe('true');
    await second.click();
    await expect.poll(() => second.getAttribute('aria-checked')).toBe('true');
    await expect(panel(page).getByTestId('multi-count').textContent()).resolves.toContain('Plan for 2 devices');
    // Still the same device shown: a card click in this mode picks, it does not switch.
    expect(await panel(page).getAttribute('data-serial')).toBe(target!.serial);
    await screenshot(page, 'panel-corrections-subscription-multi');

    await panel(page).getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog(page).textContent(), { timeout: 10_000 }).toContain('New plan has been successfully set');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toMatch(/^Plan from \d{1,2} [A-Z][a-z]{2} \d{4} to .*, waiting for the device/);
    await expect.poll(() => panel(page).getByLabel('Pending changes').textContent()).toContain('RENTAL');
    await screenshot(page, 'panel-corrections-subscription-saved');
    await menu(page, 'Device Dashboard').click();
    await expect.poll(() => panel(page).getByRole('button', { name: 'Rental Plan', exact: true }).getAttribute('aria-pressed')).toBe('true');
    // Both devices carry the plan.
    for (const d of [target!, other!]) {
      const r = (await api().get(`/api/v1/rentalV2/${d.serial}`).set('Authorization', `Token ${tokens['distributor@demo.test']}`)).body;
      expect(r.start_date, d.serial).toBe(siteToday());
    }
  });

  it('TOTAL DISPENSE and REMAINING move live while the device dispenses (distributor)', async () => {
    const target = (await devices()).find((d) => d.is_online && !DEMO_STILL_SERIALS.includes(d.serial) && d.right_pump_type === 'Unspecified')!;
    const secret = (await api().post(`/api/v1/deviceSecret/${target.serial}`).set('Authorization', `Token ${tokens['distributor@demo.test']}`)).body.secret as string;
    const page = await openPanel('distributor@demo.test', target.serial);
    const total = panel(page).getByTestId('dispense-total');
    const remaining = panel(page).getByTestId('remaining-tsp');
    await expect.poll(() => panel(page).getByTestId('analytics-window').count(), { timeout: 15_000 }).toBe(1);
    const before = Number(await total.textContent());
    const remainBefore = await remaining.textContent();
    const now = Date.now();
    const at = (i: number) => new Date(now - 1_000 * (10 - i)).toISOString();
    const checkin = await request(e2e.portal.baseURL)
      .post('/device/v1/checkin')
      .set('Authorization', `Basic ${Buffer.from(`${target.serial}:${secret}`).toString('base64')}`)
      .send({
        sentAt: new Date(now).toISOString(),
        dispenses: Array.from({ length: 7 }, (_, i) => ({ seq: now + i, pump: 1, at: at(i), ml: 2.46 })),
        levels: [{ pump: 1, at: at(8), sensor: true, volumeRemain: 777 }],
      });
    expect(checkin.status).toBe(200);
    await expect.poll(async () => Number(await total.textContent()), { timeout: PERIODS.device + 8_000 }).toBe(before + 7);
    await expect.poll(() => remaining.textContent(), { timeout: PERIODS.device + 8_000 }).not.toBe(remainBefore);
    await expect(remaining.textContent()).resolves.toBe('155.4 tsp');
  });

  it('warnings read as words on the panel cards, the pin card, the menu badge and /status (distributor)', async () => {
    const list = await devices();
    const sensor = list.find((d) => d.warning_lists.includes('PUMP_SENSOR'))!;
    const page = await openPanel('distributor@demo.test', sensor.serial);
    const card = panel(page).locator('[aria-current="true"]');
    await expect.poll(() => card.textContent(), { timeout: 15_000 }).toContain('Pump sensor fault');
    expect(await card.textContent()).not.toMatch(/[A-Z]+_[A-Z_]+/);
    await expect(menu(page, 'Device Dashboard').getByRole('img').getAttribute('aria-label')).resolves.toContain('Pump sensor fault');
    await panel(page).getByRole('button', { name: 'Back to the map' }).click();
    const pinCard = page.getByTestId('selected-device');
    await expect.poll(() => pinCard.textContent()).toContain('Pump sensor fault');
    expect(await pinCard.textContent()).not.toContain('PUMP_SENSOR');

    await page.goto('/status');
    const cells = page.getByTestId('status-warnings');
    await expect.poll(() => cells.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const texts = (await cells.allTextContents()).join(' | ');
    for (const words of ['Pump sensor fault', 'Failed request', 'Low battery', 'Left pump fluid low', 'Right pump fluid low', 'Not registered yet', 'Batch expired', 'Batch recalled']) {
      expect(texts, words).toContain(words);
    }
    expect(texts).not.toMatch(/\b[A-Z]+_[A-Z_]+\b|\bBATTERY\b|\bREGISTRATION\b/);
  });

  it("a device unknown or out of scope shows 'Device not found' and asks nothing more (distributor, client)", async () => {
    const asked: string[] = [];
    const page = await signedIn('distributor@demo.test');
    page.on('request', (r) => {
      const p = new URL(r.url()).pathname;
      if (p.startsWith('/api/')) asked.push(`${r.method()} ${p}`);
    });
    await page.goto('/?device=NOPE0000');
    await expect.poll(() => panel(page).getByTestId('device-not-found').count(), { timeout: 30_000 }).toBe(1);
    await expect(panel(page).getByRole('heading', { level: 2 }).textContent()).resolves.toBe('Device not found');
    expect(await panel(page).textContent()).not.toContain('None');
    expect(await panel(page).textContent()).not.toContain('Device unavailable');
    // No brand, no menu, no device column: nothing to act on but the way back.
    await expect(panel(page).getByRole('navigation', { name: 'Device sections' }).count()).resolves.toBe(0);
    await expect(panel(page).getByRole('button', { name: 'More Info' }).count()).resolves.toBe(0);
    await expect(panel(page).getByRole('button', { name: 'Back to the map' }).count()).resolves.toBe(2);
    const after = asked.length;
    await page.waitForTimeout(3_000);
    const extra = asked.slice(after).concat(asked).filter((c) => /NOPE0000|getPumpLog|batteryLog|simLog|monthDataUsage|pumpSetting|rentalV2/.test(c));
    expect(extra).toEqual(['GET /api/v1/device/NOPE0000']);
    await screenshot(page, 'panel-corrections-not-found');

    // A client asking for a device of another account gets the same answer.
    const clientSerials = new Set((await devices('client@demo.test')).map((d) => d.serial));
    const foreign = (await devices()).find((d) => !clientSerials.has(d.serial))!;
    const clientPage = await signedIn('client@demo.test');
    await clientPage.goto(`/?device=${foreign.serial}`);
    await expect.poll(() => panel(clientPage).getByTestId('device-not-found').count(), { timeout: 30_000 }).toBe(1);
  });

  it('the address follows the device and the section; back and forward walk through them (distributor)', async () => {
    const list = await devices();
    const counts = new Map<number, number>();
    for (const d of list) counts.set(d.location_group, (counts.get(d.location_group) ?? 0) + 1);
    const a = list.find((d) => (counts.get(d.location_group) ?? 0) > 1)!;
    const b = list.find((d) => d.location_group === a.location_group && d.serial !== a.serial)!;
    const page = await openPanel('distributor@demo.test', a.serial);
    const query = () => new URL(page.url()).search;
    await menu(page, 'SIM Management').click();
    await expect.poll(query).toBe(`?device=${a.serial}&section=sim`);
    await panel(page).locator(`button[data-serial="${b.serial}"]`).click();
    await expect.poll(query).toBe(`?device=${b.serial}&section=sim`);
    await expect.poll(() => panel(page).getAttribute('data-serial')).toBe(b.serial);

    await page.goBack();
    await expect.poll(() => panel(page).getAttribute('data-serial')).toBe(a.serial);
    await expect.poll(() => menu(page, 'SIM Management').getAttribute('aria-current')).toBe('page');
    await page.goBack();
    await expect.poll(() => menu(page, 'Device Dashboard').getAttribute('aria-current')).toBe('page');
    expect(query()).toBe(`?device=${a.serial}`);
    await page.goForward();
    await expect.poll(() => menu(page, 'SIM Management').getAttribute('aria-current')).toBe('page');
    await panel(page).getByRole('button', { name: 'Back to the map' }).click();
    await expect.poll(() => panel(page).count()).toBe(0);
    expect(query()).toBe('');
    await page.goBack();
    await expect.poll(() => panel(page).getAttribute('data-serial')).toBe(a.serial);
    await expect.poll(() => menu(page, 'SIM Management').getAttribute('aria-current')).toBe('page');
  });

  it('a client sees Device Management, Device Subscription, SIM Management and Battery Management greyed (client)', async () => {
    const target = (await devices('client@demo.test'))[0]!;
    const page = await openPanel('client@demo.test', target.serial, TABLET);
    for (const name of ['Device Management', 'Device Subscription', 'SIM Management', 'Battery Management']) {
      await expect.poll(() => menu(page, name).getAttribute('aria-disabled'), { timeout: 15_000 }).toBe('true');
      await menu(page, name).click({ force: true });
      await expect(menu(page, 'Device Dashboard').getAttribute('aria-current')).resolves.toBe('page');
    }
    await expect(menu(page, 'Device Dashboard').getAttribute('aria-disabled')).resolves.toBe(null);
    await screenshot(page, 'panel-corrections-client-tablet');
    expect(await axeSerious(page)).toEqual([]);
  });

  it('sections look right and axe finds nothing serious with the panel open, as distributor and market partner', async () => {
    const target = (await devices()).find((d) => d.is_online && d.right_pump_type !== 'Unspecified' && !DEMO_STILL_SERIALS.includes(d.serial))!;
    const page = await openPanel('distributor@demo.test', target.serial);
    await expect.poll(() => panel(page).getByTestId('analytics-window').count(), { timeout: 15_000 }).toBe(1);
    expect(await axeSerious(page)).toEqual([]);
    for (const [name, shot] of [
      ['Device Management', 'panel-corrections-management'],
      ['SIM Management', 'panel-corrections-sim'],
      ['Battery Management', 'panel-corrections-battery'],
    ] as const) {
      await menu(page, name).click();
      await page.waitForTimeout(1_500);
      await screenshot(page, shot);
      expect(await axeSerious(page), name).toEqual([]);
    }
    const partnerDevice = (await devices('partner@demo.test'))[0]!;
    const partner = await openPanel('partner@demo.test', partnerDevice.serial);
    await expect.poll(() => menu(partner, 'Device Management').getAttribute('aria-disabled'), { timeout: 15_000 }).toBe(null);
    expect(await axeSerious(partner)).toEqual([]);
  });
});

describe('map at zoom 4, 10 and 15', () => {
  it('shows land and water, state and parish borders and town names without a Google key; one-site clusters carry the site name from zoom 10 (distributor)', async () => {
    const page = await signedIn('distributor@demo.test');
    const zoom = async () => Number((await mapData(page)).zoom);
    const placeNames = () => page.getByTestId('fleet-map').locator('[data-place]').allTextContents();
    await expect.poll(zoom).toBe(10);
    await expect.poll(async () => (await mapData(page)).basemap, { timeout: 20_000 }).toBe('ready');
    // Towns around New Orleans are named (the gazetteer), and clusters of one site carry the site's name.
    // (New Orleans itself may give way to the pins on it: a name never covers the fleet.)
    await expect.poll(async () => (await placeNames()).length, { timeout: 15_000 }).toBeGreaterThan(5);
    expect((await placeNames()).some((name) => ['New Orleans', 'Metairie', 'Kenner', 'Slidell', 'Houma', 'LaPlace'].includes(name))).toBe(true);
    await expect.poll(async () => Number((await mapData(page)).siteLabelCount), { timeout: 15_000 }).toBeGreaterThan(0);
    const sites = (await api().get('/api/v1/deviceGroup').set('Authorization', `Token ${tokens['distributor@demo.test']}`)).body as { name: string }[];
    const siteLabels = await page.getByTestId('fleet-map').locator('[data-site]').allTextContents();
    for (const label of siteLabels) expect(sites.map((s) => s.name)).toContain(label);
    await page.waitForTimeout(500);
    await screenshot(page, 'panel-corrections-map-zoom10');

    for (let z = 10; z > 4; z--) await page.getByRole('button', { name: 'Zoom out' }).click();
    await expect.poll(zoom).toBe(4);
    // Zoomed out: only big cities; no device or site labels under zoom 10.
    await expect.poll(placeNames, { timeout: 15_000 }).toEqual(expect.arrayContaining(['Houston']));
    expect(await placeNames()).not.toContain('Metairie');
    await expect.poll(async () => Number((await mapData(page)).labelCount)).toBe(0);
    await page.waitForTimeout(500);
    await screenshot(page, 'panel-corrections-map-zoom4');

    // Zoom 15 is the selected device's zoom (spec section 2): open one, go back to the map beside it.
    const target = (await devices()).find((d) => d.is_online)!;
    await page.goto(`/?device=${target.serial}`);
    await expect.poll(() => panel(page).getAttribute('data-serial'), { timeout: 30_000 }).toBe(target.serial);
    await panel(page).getByRole('button', { name: 'Back to the map' }).click();
    await expect.poll(zoom, { timeout: 10_000 }).toBe(15);
    await expect.poll(async () => (await mapData(page)).basemap, { timeout: 20_000 }).toBe('ready');
    await page.waitForTimeout(1_000);
    await screenshot(page, 'panel-corrections-map-zoom15');
    expect(await axeSerious(page)).toEqual([]);
  });

  it('MAP_STYLE_URL: the offline map draws the operator\'s MapLibre style instead of its own basemap, the fleet on top (distributor)', async () => {
    const context = await e2e.browser.newContext({ viewport: DESKTOP, baseURL: e2e.portal.baseURL, timezoneId: BROWSER_ZONE });
    contexts.push(context);
    // As a server with MAP_STYLE_URL set answers it; the style an operator hosts (a plain background here).
    await context.route('**/api/v1/clientConfig', (route) => route.fulfill({ json: { googleMapsApiKey: null, mapStyleUrl: '/operator/style.json' } }));
    let styleRead = false;
    await context.route('**/operator/style.json', (route) => {
      styleRead = true;
      return route.fulfill({ json: { version: 8, sources: {}, layers: [{ id: 'operator-background', type: 'background', paint: { 'background-color': '#f4e9d8' } }] } });
    });
    const page = await context.newPage();
    await page.goto('/');
    await signInToMap(page, 'distributor@demo.test');
    expect(styleRead).toBe(true);
    expect((await mapData(page)).mapStyle).toBe('operator');
    expect(Number((await mapData(page)).pinCount)).toBeGreaterThan(60);
    await page.waitForTimeout(1_500);
    // No built-in basemap or town names over the operator's own.
    expect((await mapData(page)).basemap).toBeUndefined();
    await expect(page.getByTestId('fleet-map').locator('[data-place]').count()).resolves.toBe(0);
    await screenshot(page, 'panel-corrections-map-operator-style');
  });
});
