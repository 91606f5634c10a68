/**
 * The device panel and the map as a customer sees them (issue 18), in a real browser whose own time zone
 * is chosen so that its date differs from the demo sites' (America/Chicago) whenever the file runs (see
 * BROWSER_ZONE): every date and time check proves the site's zone is used, not the browser's. One check
 * per point, each as the role that meets it; screenshots of the panel sections and the map at zoom 4, 10
 * and 15.
 */
import { localDateOf } from '@fleet/shared';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  formatDeviceClock,
  latestPage,
  pageHours,
  siteDateTime,
  toggleConfirmation,
} from '../../client/src/widgets/device-panel/lib/panel-lib.ts';
import { DEMO_STILL_SERIALS } from '../../server/src/seed/demo-data.ts';
import {
  animationsSettled,
  DESKTOP,
  mapData,
  mapIdle,
  recordSteps,
  screenshot,
  seriousAxe,
  signInToMap,
  startE2E,
  stepsUntil,
  TABLET,
  type E2E,
  type RecordedStep,
} from './browser.ts';
import { apiTokens, startPortalPushes } from './server.ts';

const SITE_ZONE = 'America/Chicago';
/**
 * The browser's zone: one whose date is not the site's for the whole run, whatever the hour. No zone is a
 * day away from Chicago, so one of two is taken: Pacific/Kiritimati (UTC+14, 19-20 hours ahead: another
 * date from 04:00-05:00 Chicago time to midnight) or Etc/GMT+12 (UTC-12, 6-7 hours behind: another date
 * from midnight to 06:00-07:00), whichever holds from now to the end of the run (at most 30 minutes).
 */
const BROWSER_ZONE = ['Pacific/Kiritimati', 'Etc/GMT+12'].find((zone) =>
  [0, 30 * 60_000].every((ahead) => localDateOf(Date.now() + ahead, zone) !== localDateOf(Date.now() + ahead, SITE_ZONE)),
)!;
const PERIODS = { device: 3_000, simLog: 5_000, deviceCards: 3_000, overview: 5_000 };

let e2e: E2E;
let rt: Awaited<ReturnType<typeof startPortalPushes>>;
const contexts: BrowserContext[] = [];
const tokens: Record<string, string> = {};

beforeAll(async () => {
  e2e = await startE2E();
  rt = await startPortalPushes(e2e.portal, PERIODS);
  Object.assign(tokens, await apiTokens(e2e.portal, ['distributor@demo.test', 'client@demo.test', 'partner@demo.test']));
});
afterAll(async () => {
  await e2e?.closeClients();
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
  return ((await api().get('/api/v1/device').set('Authorization', `Token ${tokens[email]}`)).body as ApiDevice[]).filter(
    (d) => d.location_group,
  );
}

/** A page in a browser set to BROWSER_ZONE's time, signed in to the map. */
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
/** What shows once a section has its data: the screenshot waits for it. */
const SECTION_READY = {
  'Device Management': 'input[type="range"]',
  'SIM Management': '[data-testid="sms-log"] tbody tr',
  'Battery Management': '.apexcharts-canvas',
} as const;

/**
 * Clicks a control toggle (Maintenance, Anti vandalism, Activated/Deactivated) and, when its change stops the
 * machine or locks out its users, answers Yes to the question it asks first.
 */
async function flip(page: Page, toggle: Locator) {
  const [name, pressed] = [(await toggle.textContent())!.trim(), (await toggle.getAttribute('aria-pressed')) === 'true'];
  const kind = name === 'Maintenance' ? 'maintenance' : name === 'Anti vandalism' ? 'vandalism' : 'active';
  await toggle.click();
  const question = toggleConfirmation(kind, !pressed);
  if (question) await page.getByRole('dialog', { name: question.title }).getByRole('button', { name: 'Yes' }).click();
}
const panel = (page: Page) => page.getByTestId('device-panel');
const menu = (page: Page, name: string) =>
  panel(page).getByRole('navigation', { name: 'Device sections' }).getByRole('button', { name });
const dialog = (page: Page) => panel(page).getByTestId('control-dialog');

/** Records each phase of the device panel's control dialog ('closed' when gone). */
const recordDialogPhases = (page: Page) =>
  recordSteps(page, '[data-testid="device-panel"] [data-testid="control-dialog"]', 'data-phase');
/** The phases recorded since recordDialogPhases, once the dialog has shown `result` and closed again. */
const dialogPhasesUntilClosed = (page: Page, result: string) => stepsUntil(page, new RegExp(`${result} closed$`));
/** One cycle of the control dialog (spec section 4): loading, the result with its text, closed about 1 s later. */
function expectCycle(phases: RecordedStep[], result: 'success' | 'danger', text: string) {
  expect(
    phases.map((p) => p.value),
    text,
  ).toEqual(['loading', result, 'closed']);
  expect(result === 'danger' ? phases[1]!.alert : phases[1]!.text).toContain(text);
  const closedAfter = phases[2]!.at - phases[1]!.at;
  // The dialog closes on a 1 s timer (RESULT_CLOSE_MS). The bound above is wide because a page on a loaded
  // two-core CI host ran that timer 3.7 s late; it still tells 'closes by itself' from 'stays until the next
  // poll' (10 s or more) or 'never'. The lower bound is 250 ms, not 500: in a clean-clone run of 1b243b5 on a
  // loaded host the page's recorder measured 305 ms between the result and the close (it records the result
  // late when the page is slow); a dialog closing with its result, without the timer, still reads under it.
  expect(closedAfter, text).toBeGreaterThan(250);
  expect(closedAfter, text).toBeLessThan(6_000);
}
const siteToday = () => localDateOf(Date.now(), SITE_ZONE);

/**
 * Serious or critical axe findings on the whole page, with axe-core's default rules (4.14 runs
 * label-content-name-mismatch by default: a control whose accessible name does not hold its visible text).
 */
const axeSerious = (page: Page) => seriousAxe(page);

describe('device panel corrections (the browser a date away from the sites in Chicago)', () => {
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
    const answer = (
      await api().post('/api/v1/getPumpLog').set('Authorization', `Token ${tokens['distributor@demo.test']}`).send(bodies[0])
    ).body;
    const expected = pageHours(answer.dispensingDatas, latestPage(answer.dispensingDatas, answer.remainDatas, Date.now()));
    await expect.poll(() => panel(page).getByTestId('analytics-window').textContent(), { timeout: 10_000 }).toBe(expected);
    // The latest-data window never starts in the site's future.
    const siteHour = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: SITE_ZONE, hour: 'numeric', hourCycle: 'h23' }).format(new Date()),
    );
    expect(Number(expected.slice(0, 2))).toBeLessThanOrEqual(siteHour);
    await expect.poll(() => panel(page).locator('.apexcharts-canvas').count(), { timeout: 15_000 }).toBe(1);
    // The site's day differs from the browser's all through the run: the checks below cannot pass by chance.
    expect(localDateOf(Date.now(), BROWSER_ZONE)).not.toBe(siteToday());
    await screenshot(page, 'panel-corrections-dashboard-other-zone');

    // The chart's first category is the site's wall clock of the window's first hour, and paging moves the
    // window by the site's hours (Earlier, or Later when the latest data is in the first window).
    const rows = answer.dispensingDatas as { date: string; value: number | null }[];
    const hourAt = (date: string, zone: string) =>
      new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
        Date.parse(date),
      );
    const firstCategory = () => panel(page).locator('.apexcharts-xaxis-label tspan').first().textContent();
    const shownPage = latestPage(rows, answer.remainDatas, Date.now());
    await expect.poll(firstCategory).toBe(hourAt(rows[shownPage * 6]!.date, SITE_ZONE));
    expect(hourAt(rows[shownPage * 6]!.date, BROWSER_ZONE)).not.toBe(await firstCategory());
    const next = shownPage > 0 ? shownPage - 1 : shownPage + 1;
    await panel(page)
      .getByRole('button', { name: shownPage > 0 ? 'Earlier' : 'Later' })
      .click();
    await expect.poll(() => panel(page).getByTestId('analytics-window').textContent()).toBe(pageHours(rows, next));
    expect(pageHours(rows, next).slice(0, 5)).toBe(hourAt(rows[next * 6]!.date, SITE_ZONE));
    await expect.poll(firstCategory).toBe(hourAt(rows[next * 6]!.date, SITE_ZONE));

    await panel(page).getByRole('button', { name: 'WEEKLY' }).click();
    await expect.poll(() => bodies.at(-1)?.filterDateType).toBe('WEEKLY');
    expect(bodies.at(-1)!.endDate).toBe(siteToday());
    await panel(page).getByRole('button', { name: 'MONTHLY' }).click();
    await expect.poll(() => bodies.at(-1)?.filterDateType).toBe('MONTHLY');
    expect(bodies.at(-1)!.endDate).toBe(siteToday());
    // The date picker's last day is the site's today, not the browser's.
    await expect(panel(page).getByLabel('Until').getAttribute('max')).resolves.toBe(siteToday());

    // SMS CREATED TIME: each row's instant on the site's clock.
    await menu(page, 'SIM Management').click();
    const smsRows = panel(page).getByTestId('sms-log').locator('tbody tr');
    await expect.poll(() => smsRows.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const cells = (await smsRows.evaluateAll((trs) => trs.map((tr) => tr.lastElementChild?.textContent ?? ''))).slice(0, 10);
    // Read after the table: the latest rows hold every row shown (pushes may have added some since it opened).
    const sms = (
      await api().get(`/api/v1/simLog/${target.serial}?limit=50`).set('Authorization', `Token ${tokens['distributor@demo.test']}`)
    ).body as { created_when: string }[];
    const asSite = sms.map((r) => formatDeviceClock(Date.parse(r.created_when), SITE_ZONE));
    const asBrowser = sms.map((r) => formatDeviceClock(Date.parse(r.created_when), BROWSER_ZONE));
    for (const cell of cells) {
      expect(asSite).toContain(cell);
      expect(asBrowser).not.toContain(cell);
    }
  });

  it('one time zone: pending change times and the header in the site zone, named once (distributor)', async () => {
    const target = (await devices()).find(
      (d) => d.is_online && !d.is_pause && !DEMO_STILL_SERIALS.includes(d.serial) && !d.rental,
    )!;
    const page = await openPanel('distributor@demo.test', target.serial);
    const vandalism = panel(page).getByRole('button', { name: 'Anti vandalism', exact: true });
    await expect.poll(() => vandalism.isEnabled(), { timeout: 15_000 }).toBe(true);
    const asked = Date.now();
    await flip(page, vandalism);
    const item = panel(page).locator('li').filter({ hasText: 'Anti vandalism' }).filter({ hasText: 'asked' });
    await expect.poll(() => item.count(), { timeout: 10_000 }).toBe(1);
    const text = (await item.textContent())!;
    // Site time (Chicago), within the minute of the click: never the browser's.
    const candidates = [asked - 60_000, asked, asked + 60_000].map((t) => siteDateTime(t, SITE_ZONE));
    expect(candidates.some((c) => text.includes(`asked ${c}`))).toBe(true);
    expect(text).not.toContain(siteDateTime(asked, BROWSER_ZONE));
    // The zone is named once, in the header beside the device clock.
    const whole = (await panel(page).textContent())!;
    expect(whole.split(SITE_ZONE).length - 1).toBe(1);
    await expect(panel(page).getByLabel('Device time').textContent()).resolves.toContain(SITE_ZONE);
    // One clock for a screen reader too: the map's own clock (the browser's time and GMT offset) is hidden, not
    // only covered, under the expanded panel, and back when the panel folds to its header.
    await expect.poll(() => page.getByTestId('clock-panel').isVisible()).toBe(false);
    expect(await page.locator('body').ariaSnapshot()).not.toMatch(/GMT/);
    await panel(page).getByRole('button', { name: 'Collapse the panel' }).click();
    await expect.poll(() => page.getByTestId('clock-panel').isVisible()).toBe(true);
    expect(await page.locator('body').ariaSnapshot()).toMatch(/GMT/);
    await panel(page).getByRole('button', { name: 'Expand the panel' }).click();
    await panel(page).getByRole('button', { name: 'Cancel the Anti vandalism change' }).click();
    await expect.poll(() => item.count()).toBe(0);
  });

  it('control dialog: loading, the result, closed about 1 s later, for every kind of control; a refused change goes back (distributor)', async () => {
    const target = (await devices()).find(
      (d) => d.is_online && !d.is_pause && !DEMO_STILL_SERIALS.includes(d.serial) && !d.rental,
    )!;
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
    await flip(page, maintenance);
    await expect.poll(() => dialog(page).getAttribute('data-phase')).toBe('loading');
    await expect(dialog(page).textContent()).resolves.toContain('Saving ...');
    await screenshot(page, 'panel-corrections-control-loading');
    const phases = await dialogPhasesUntilClosed(page, 'success');
    expectCycle(phases, 'success', was ? 'Maintenance deactivated' : 'Maintenance activated');
    expect(await maintenance.getAttribute('aria-pressed')).toBe(was ? 'false' : 'true');
    await page.unroute('**/api/v1/set_device_config/**');

    // Every other kind of control, each answered once by the server and once refused (a routed 500, a
    // little late so that the loading phase is on screen for a frame or more whatever the load).
    const refuse = (pattern: string, lateMs = 300) =>
      page.route(pattern, async (route) => {
        await new Promise((r) => setTimeout(r, lateMs));
        await route.fulfill({ status: 500, json: { detail: 'boom' } });
      });
    const cycle = async (act: () => Promise<unknown>, result: 'success' | 'danger', text: string) => {
      await expect.poll(() => dialog(page).count()).toBe(0);
      await recordDialogPhases(page);
      await act();
      expectCycle(await dialogPhasesUntilClosed(page, result), result, text);
    };
    const pending = (name: string) => panel(page).getByRole('button', { name: `Cancel the ${name} change` });
    const confirmed = (button: Locator, title: string) => async () => {
      await button.click();
      await page.getByRole('dialog', { name: title }).getByRole('button', { name: 'Yes' }).click();
    };
    /** `act` refused by the server (`whenRefused` checks what shows then), then `act` again, answered. */
    const refusedThenDone = async (
      pattern: string,
      act: () => Promise<unknown>,
      texts: { refused: string; done: string },
      whenRefused = async () => {},
    ) => {
      await refuse(pattern);
      await cycle(act, 'danger', texts.refused);
      await whenRefused();
      await page.unroute(pattern);
      await cycle(act, 'success', texts.done);
    };
    const wrong = 'Something went wrong.';

    // Withdrawing a pending change: refused (the change stays), then done.
    await refusedThenDone(
      '**/api/v1/cancelPendingChange/**',
      () => pending('Maintenance').click(),
      { refused: wrong, done: 'The change was cancelled.' },
      async () => {
        await expect(pending('Maintenance').count()).resolves.toBe(1);
      },
    );
    await expect.poll(() => maintenance.getAttribute('aria-pressed')).toBe(was ? 'true' : 'false');

    // Anti vandalism and Activated refused: the error dialog, and the toggle goes back.
    const vandalism = panel(page).getByRole('button', { name: 'Anti vandalism', exact: true });
    const activated = panel(page).getByRole('button', { name: /^(Activated|Deactivated)$/ });
    // Late enough that the toggle is seen showing the value asked for after the question's Yes (a loaded host
    // missed a 300 ms window).
    await refuse('**/api/v1/set_device_config/**', 1_500);
    for (const toggle of [vandalism, activated]) {
      const before = await toggle.getAttribute('aria-pressed');
      await cycle(
        async () => {
          await flip(page, toggle);
          await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe(before === 'true' ? 'false' : 'true');
        },
        'danger',
        wrong,
      );
      expect(await toggle.getAttribute('aria-pressed')).toBe(before);
    }
    await page.unroute('**/api/v1/set_device_config/**');
    const activeBefore = await activated.getAttribute('aria-pressed');
    await cycle(() => flip(page, activated), 'success', 'Your config setup has been successfully saved.');
    await expect.poll(() => activated.getAttribute('aria-pressed')).toBe(activeBefore === 'true' ? 'false' : 'true');
    await pending('Activation').click();
    await expect.poll(() => pending('Activation').count()).toBe(0);

    // Pause, after its confirmation: refused, then done (and its pending change withdrawn again).
    const pause = confirmed(panel(page).getByRole('button', { name: 'Pause Device' }), 'Pause Device?');
    await refusedThenDone('**/api/v1/setPauseDevice/**', pause, { refused: wrong, done: 'Device paused' });
    await pending('Pause').click();
    await expect.poll(() => pending('Pause').count()).toBe(0);

    // RESET tsp, after its confirmation.
    const reset = confirmed(panel(page).getByRole('button', { name: 'RESET tsp' }), 'Reset tsp ?');
    await refusedThenDone('**/api/v1/resetMl/**', reset, { refused: wrong, done: 'Remaining amount reset' });

    // Device Management: the pump mode slider (saved 1 s after the last move) and a registration timer
    // (0.5 s after the last key), refused first: the control shows the saved value again.
    await menu(page, 'Device Management').click();
    const slider = panel(page).getByRole('slider').first();
    await expect.poll(() => slider.count(), { timeout: 15_000 }).toBe(1);
    const mode = await slider.inputValue();
    const move = mode === '8' ? 'ArrowLeft' : 'ArrowRight';
    await refusedThenDone(
      '**/api/v1/editPumpSetting/**',
      async () => {
        await slider.press(move);
        expect(await slider.inputValue()).not.toBe(mode);
      },
      {
        refused: 'Oops! There was an error updating your pump settings. Please try again later.',
        done: 'Your pump settings have been successfully updated.',
      },
      async () => expect(await slider.inputValue()).toBe(mode),
    );
    expect(await slider.inputValue()).not.toBe(mode);

    const powerOff = panel(page).getByLabel('Power off after (min)');
    const minutes = await powerOff.inputValue();
    const other = String(Number(minutes) === 45 ? 50 : 45);
    await refusedThenDone(
      '**/api/v1/deviceRegistrationSetup/**',
      () => powerOff.fill(other),
      {
        refused: 'Oops! There was an error saving your time setup. Please try again later.',
        done: 'Your time setup has been successfully saved.',
      },
      async () => expect(await powerOff.inputValue()).toBe(minutes),
    );
    expect(await powerOff.inputValue()).toBe(other);
  });

  it('rental plan: after Save the status line, the message and the RENTAL marker agree; multi-select keeps the current device (distributor)', async () => {
    const list = await devices();
    const groups = new Map<number, ApiDevice[]>();
    for (const d of list)
      if (!d.rental && !DEMO_STILL_SERIALS.includes(d.serial))
        groups.set(d.location_group, [...(groups.get(d.location_group) ?? []), d]);
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
    expect(await axeSerious(page), 'multi-select').toEqual([]);

    // Save refused: the error dialog with the server's answer, closed about 1 s later; no plan, still editing.
    await page.route('**/api/v1/rentalV2', async (route) => {
      await new Promise((r) => setTimeout(r, 300));
      await route.fulfill({ status: 500, json: { detail: 'boom' } });
    });
    await recordDialogPhases(page);
    await panel(page).getByRole('button', { name: 'Save' }).click();
    expectCycle(await dialogPhasesUntilClosed(page, 'danger'), 'danger', 'Something went wrong.');
    expect(await status.textContent()).toBe('No rental plan on this device.');
    await page.unroute('**/api/v1/rentalV2');
    // Saved: loading, the success, closed about 1 s later.
    await recordDialogPhases(page);
    await panel(page).getByRole('button', { name: 'Save' }).click();
    expectCycle(await dialogPhasesUntilClosed(page, 'success'), 'success', 'New plan has been successfully set');
    await expect
      .poll(() => status.textContent(), { timeout: 10_000 })
      .toMatch(/^Plan from \d{1,2} [A-Z][a-z]{2} \d{4} to .*, waiting for the device/);
    await expect.poll(() => panel(page).getByLabel('Pending changes').textContent()).toContain('RENTAL');
    await screenshot(page, 'panel-corrections-subscription-saved');
    await menu(page, 'Device Dashboard').click();
    await expect
      .poll(() => panel(page).getByRole('button', { name: 'Rental Plan', exact: true }).getAttribute('aria-pressed'))
      .toBe('true');
    // Both devices carry the plan.
    for (const d of [target!, other!]) {
      const r = (await api().get(`/api/v1/rentalV2/${d.serial}`).set('Authorization', `Token ${tokens['distributor@demo.test']}`))
        .body;
      expect(r.start_date, d.serial).toBe(siteToday());
    }
  });

  it('TOTAL DISPENSE and REMAINING move live while the device dispenses (distributor)', async () => {
    const target = (await devices()).find(
      (d) => d.is_online && !DEMO_STILL_SERIALS.includes(d.serial) && d.right_pump_type === 'Unspecified',
    )!;
    const secret = (
      await api().post(`/api/v1/deviceSecret/${target.serial}`).set('Authorization', `Token ${tokens['distributor@demo.test']}`)
    ).body.secret as string;
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
    await expect(menu(page, 'Device Dashboard').getByRole('img').getAttribute('aria-label')).resolves.toContain(
      'Pump sensor fault',
    );
    await panel(page).getByRole('button', { name: 'Back to the map' }).click();
    const pinCard = page.getByTestId('selected-device');
    await expect.poll(() => pinCard.textContent()).toContain('Pump sensor fault');
    expect(await pinCard.textContent()).not.toContain('PUMP_SENSOR');

    await page.goto('/status');
    const cells = page.getByTestId('status-warnings');
    await expect.poll(() => cells.count(), { timeout: 30_000 }).toBeGreaterThan(0);
    const texts = (await cells.allTextContents()).join(' | ');
    for (const words of [
      'Pump sensor fault',
      'Failed request',
      'Low battery',
      'Left pump fluid low',
      'Right pump fluid low',
      'Not registered yet',
      'Batch expired',
      'Batch recalled',
    ]) {
      expect(texts, words).toContain(words);
    }
    expect(texts).not.toMatch(/\b[A-Z]+_[A-Z_]+\b|\bBATTERY\b|\bREGISTRATION\b/);
  });

  it("a device unknown or out of scope shows 'Device not found' and asks nothing more (distributor, client, market partner)", async () => {
    // A serial nobody has, one of another account for the client, one outside the partner's exclusive devices.
    const all = await devices();
    const outside = async (email: string) => {
      const mine = new Set((await devices(email)).map((d) => d.serial));
      return all.find((d) => !mine.has(d.serial))!.serial;
    };
    const cases = [
      { email: 'distributor@demo.test', serial: 'NOPE0000' },
      { email: 'client@demo.test', serial: await outside('client@demo.test') },
      { email: 'partner@demo.test', serial: await outside('partner@demo.test') },
    ];
    // Each a returning user opening the link, side by side (one wait for all three). What each page asked
    // is read from its resource timing afterwards, which also holds what it asked before a listener could be set.
    const pages = await Promise.all(
      cases.map(({ email, serial }) => e2e.openSignedIn(email, `/?device=${serial}`, { timezoneId: BROWSER_ZONE })),
    );
    for (const page of pages)
      await expect.poll(() => panel(page).getByTestId('device-not-found').count(), { timeout: 30_000 }).toBe(1);
    const page = pages[0]!;
    await expect(panel(page).getByRole('heading', { level: 2 }).textContent()).resolves.toBe('Device not found');
    expect(await panel(page).textContent()).not.toContain('None');
    expect(await panel(page).textContent()).not.toContain('Device unavailable');
    // No brand, no menu, no device column: nothing to act on but the way back.
    await expect(panel(page).getByRole('navigation', { name: 'Device sections' }).count()).resolves.toBe(0);
    await expect(panel(page).getByRole('button', { name: 'More Info' }).count()).resolves.toBe(0);
    await expect(panel(page).getByRole('button', { name: 'Back to the map' }).count()).resolves.toBe(2);
    await screenshot(page, 'panel-corrections-not-found');
    expect(await axeSerious(page), 'not found').toEqual([]);
    // Time for a call that would follow (a section's data, the pump log): none may come. Real time on purpose:
    // a check that nothing happens can only wait; a loaded host makes it laxer, never a false failure.
    await page.waitForTimeout(3_000);
    for (const [i, p] of pages.entries()) {
      const { serial, email } = cases[i]!;
      const asked = (await p.evaluate(() =>
        performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname),
      )) as string[];
      // The browser's buffer holds 250 entries: a full one could have dropped some.
      expect(asked.length, email).toBeLessThan(250);
      const about = asked.filter(
        (path) => path.includes(serial) || /getPumpLog|batteryLog|simLog|monthDataUsage|pumpSetting|rentalV2/.test(path),
      );
      expect(about, email).toEqual([`/api/v1/device/${serial}`]);
    }
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
    const target = (await devices()).find(
      (d) => d.is_online && d.right_pump_type !== 'Unspecified' && !DEMO_STILL_SERIALS.includes(d.serial),
    )!;
    const page = await openPanel('distributor@demo.test', target.serial);
    await expect.poll(() => panel(page).getByTestId('analytics-window').count(), { timeout: 15_000 }).toBe(1);
    expect(await axeSerious(page)).toEqual([]);
    for (const [name, shot] of [
      ['Device Management', 'panel-corrections-management'],
      ['SIM Management', 'panel-corrections-sim'],
      ['Battery Management', 'panel-corrections-battery'],
    ] as const) {
      await menu(page, name).click();
      // The section's own content, then its animations: not a guessed sleep.
      await panel(page).locator(SECTION_READY[name]).first().waitFor({ timeout: 15_000 });
      await animationsSettled(page);
      await screenshot(page, shot);
      expect(await axeSerious(page), name).toEqual([]);
    }
    // The Device Info dialog open over the panel.
    await panel(page).getByRole('button', { name: 'More Info' }).click();
    const info = page.getByRole('dialog', { name: 'Device Info' });
    await expect.poll(() => info.isVisible()).toBe(true);
    await animationsSettled(page);
    await screenshot(page, 'panel-corrections-device-info');
    expect(await axeSerious(page), 'Device Info').toEqual([]);
    await info.getByRole('button', { name: 'Back' }).click();
    await expect.poll(() => info.count()).toBe(0);

    // The market partner on the dashboard and on each operator section.
    const partnerDevice = (await devices('partner@demo.test'))[0]!;
    const partner = await openPanel('partner@demo.test', partnerDevice.serial);
    await expect.poll(() => menu(partner, 'Device Management').getAttribute('aria-disabled'), { timeout: 15_000 }).toBe(null);
    expect(await axeSerious(partner), 'partner: Device Dashboard').toEqual([]);
    for (const [name, ready] of [
      ['Device Management', () => panel(partner).getByRole('slider').count()],
      ['Device Subscription', () => panel(partner).getByTestId('rental-status').count()],
      ['SIM Management', () => panel(partner).getByTestId('sms-log').or(panel(partner).getByText('No data available')).count()],
      [
        'Battery Management',
        () => panel(partner).locator('.apexcharts-canvas').or(panel(partner).getByText('No Data present in the graph!')).count(),
      ],
    ] as const) {
      await menu(partner, name).click();
      await expect.poll(ready, { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await axeSerious(partner), `partner: ${name}`).toEqual([]);
    }
    await screenshot(partner, 'panel-corrections-partner-battery');
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
    expect(
      (await placeNames()).some((name) => ['New Orleans', 'Metairie', 'Kenner', 'Slidell', 'Houma', 'LaPlace'].includes(name)),
    ).toBe(true);
    await expect.poll(async () => Number((await mapData(page)).siteLabelCount), { timeout: 15_000 }).toBeGreaterThan(0);
    const sites = (await api().get('/api/v1/deviceGroup').set('Authorization', `Token ${tokens['distributor@demo.test']}`))
      .body as { name: string }[];
    const siteLabels = await page.getByTestId('fleet-map').locator('[data-site]').allTextContents();
    for (const label of siteLabels) expect(sites.map((s) => s.name)).toContain(label);
    await mapIdle(page);
    await screenshot(page, 'panel-corrections-map-zoom10');

    for (let z = 10; z > 4; z--) await page.getByRole('button', { name: 'Zoom out' }).click();
    await expect.poll(zoom).toBe(4);
    // Zoomed out: only big cities; no device or site labels under zoom 10.
    await expect.poll(placeNames, { timeout: 15_000 }).toEqual(expect.arrayContaining(['Houston']));
    expect(await placeNames()).not.toContain('Metairie');
    await expect.poll(async () => Number((await mapData(page)).labelCount)).toBe(0);
    await mapIdle(page);
    await screenshot(page, 'panel-corrections-map-zoom4');

    // Zoom 15 is the selected device's zoom (spec section 2): open one by its link, go back to the map beside
    // it. The pin feed answers late, as on a slow connection, so the panel opens before the pins hold the
    // device (a loaded CI host did this by itself once): the map centres it when its pin arrives.
    const target = (await devices()).find((d) => d.is_online)!;
    await page.route('**/api/v1/devicePins', async (route) => {
      await new Promise((r) => setTimeout(r, 2_500));
      await route.fallback();
    });
    await page.goto(`/?device=${target.serial}`);
    await expect.poll(() => panel(page).getAttribute('data-serial'), { timeout: 30_000 }).toBe(target.serial);
    await panel(page).getByRole('button', { name: 'Back to the map' }).click();
    await expect.poll(zoom, { timeout: 10_000 }).toBe(15);
    await expect.poll(async () => (await mapData(page)).basemap, { timeout: 20_000 }).toBe('ready');
    await mapIdle(page);
    await screenshot(page, 'panel-corrections-map-zoom15');
    expect(await axeSerious(page)).toEqual([]);
  });

  it("MAP_STYLE_URL: the offline map draws the operator's MapLibre style instead of its own basemap, the fleet on top (distributor)", async () => {
    const context = await e2e.browser.newContext({ viewport: DESKTOP, baseURL: e2e.portal.baseURL, timezoneId: BROWSER_ZONE });
    contexts.push(context);
    // As a server with MAP_STYLE_URL set answers it; the style an operator hosts (a plain background here).
    await context.route('**/api/v1/clientConfig', (route) =>
      route.fulfill({ json: { googleMapsApiKey: null, mapStyleUrl: '/operator/style.json' } }),
    );
    let styleRead = false;
    await context.route('**/operator/style.json', (route) => {
      styleRead = true;
      return route.fulfill({
        json: {
          version: 8,
          sources: {},
          layers: [{ id: 'operator-background', type: 'background', paint: { 'background-color': '#f4e9d8' } }],
        },
      });
    });
    const page = await context.newPage();
    await page.goto('/');
    await signInToMap(page, 'distributor@demo.test');
    expect(styleRead).toBe(true);
    expect((await mapData(page)).mapStyle).toBe('operator');
    expect(Number((await mapData(page)).pinCount)).toBeGreaterThan(60);
    await mapIdle(page);
    // No built-in basemap or town names over the operator's own.
    expect((await mapData(page)).basemap).toBeUndefined();
    await expect(page.getByTestId('fleet-map').locator('[data-place]').count()).resolves.toBe(0);
    await screenshot(page, 'panel-corrections-map-operator-style');
  });
});
