/**
 * The SUBSCRIPTIONS tab and the overdue rule in Chromium, on the demo seed with the real push server:
 * a distributor reads the plans, chooses devices not yet on a plan, checks out and records the payment;
 * an overdue account gets the Account Deactivated dialog at sign-in; a user on the map whose account the
 * overdue job deactivates gets it at once (its sockets are closed with 'session:ended'). Screenshots at
 * 1280 and 820 px in tests/.artifacts; axe on the tab and the dialog.
 */
import type { Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_PATH } from '../../server/src/billing/billing.routes.ts';
import { overdueTick } from '../../server/src/billing/overdue-schedule.ts';
import { signWebhook } from '../../server/src/billing/webhook-signature.ts';
import { startRealtime } from '../../server/src/realtime/realtime.ts';
import { sessionHub } from '../../server/src/realtime/sessions.ts';
import {
  animationsSettled,
  deactivatedDialog,
  DESKTOP,
  screenshot,
  seriousAxe,
  signIn,
  signInToMap,
  startE2E,
  TABLET,
  type E2E,
} from './browser.ts';
import { apiToken, portalAuth } from './server.ts';

let e2e: E2E;
let rt: Awaited<ReturnType<typeof startRealtime>>;
const hub = sessionHub();

beforeAll(async () => {
  e2e = await startE2E();
  rt = await startRealtime(e2e.portal.server, {
    db: e2e.portal.harness.database.db,
    auth: (await portalAuth(e2e.portal)) as never,
    sessions: hub,
    serviceToken: e2e.portal.harness.config.serviceToken,
    deviceApiUrl: e2e.portal.baseURL,
  });
});
afterEach(async () => {
  await e2e?.closeContexts();
});
afterAll(async () => {
  await e2e?.closeClients();
  await rt?.close().catch(() => undefined);
  await e2e?.close();
});

const tab = (page: Page) => page.getByTestId('subscriptions');
const section = (page: Page, name: string) => tab(page).getByRole('region', { name });

async function openSubscriptions(email: string, viewport = DESKTOP) {
  const page = await e2e.openPage(viewport);
  await signInToMap(page, email);
  await page.getByRole('tab', { name: 'SUBSCRIPTIONS' }).click();
  await section(page, 'Active Subscriptions').waitFor();
  return page;
}

describe('SUBSCRIPTIONS tab', () => {
  it('lists the plans in force, the bills waiting and the other plans; checks out devices not yet on a plan; a distributor records the payment', async () => {
    const page = await openSubscriptions('distributor@demo.test');
    await expect.poll(() => tab(page).getByRole('heading', { name: 'Manage your Subscriptions' }).count()).toBe(1);

    // Active: the seeded Sim Card over every placed device and the Basic Plan over all but Lapsed Leisure's
    // (those are on its overdue bill), with the catalogue prices.
    const auth = { Authorization: `Token ${await apiToken(e2e.portal, 'distributor@demo.test')}` };
    const placed = ((await request(e2e.portal.harness.app).get('/api/v1/device').set(auth)).body as unknown[]).length;
    const bills = (await request(e2e.portal.harness.app).get('/api/v1/get_all_bill').set(auth)).body as {
      bill_uid: string;
      device_count: number;
    }[];
    const lapsed = bills.find((b) => b.bill_uid === 'DEMO-BASIC-0099')!.device_count;
    expect(lapsed).toBeGreaterThan(0);
    const active = section(page, 'Active Subscriptions');
    await expect.poll(() => active.locator('tbody tr').count()).toBe(2);
    expect(await active.locator('tr[data-plan="basic-plan"] td').allInnerTexts()).toEqual([String(placed - lapsed), '$17.00']);
    expect(await active.locator('tr[data-plan="sim-card"] td').allInnerTexts()).toEqual([String(placed), '$5.00']);
    expect(await active.locator('thead th').allInnerTexts()).toEqual(['Name', 'No. of Devices', 'Price / month / device']);

    // Pending: the overdue account's bill first (with its deactivation day), then the seeded Maintenance bill.
    const pending = section(page, 'Pending Subscriptions');
    await expect.poll(() => pending.locator('article').count()).toBe(2);
    expect(await pending.locator('article').first().getAttribute('data-bill')).toBe('DEMO-BASIC-0099');
    await expect
      .poll(() => pending.locator('article[data-bill="DEMO-BASIC-0099"]').innerText())
      .toMatch(
        new RegExp(
          `Basic Plan \\(Contract\\)[\\s\\S]*Overdue[\\s\\S]*${lapsed} devices · \\$${(lapsed * 17).toFixed(2)} / month`,
        ),
      );
    expect(await pending.locator('article[data-bill="DEMO-MAINT-0001"]').innerText()).toMatch(
      /Maintenance[\s\S]*Pending[\s\S]*20 devices · \$150\.00 \/ month/,
    );

    // Other: one 'new' badge (section 9: "Vandalism Deactivation 7.5 (new), BLE Tracking 3") and 'TBA'.
    const other = section(page, 'Other Subscriptions');
    expect(await other.locator('li[data-plan="vandalism-deactivation"]').innerText()).toMatch(
      /Vandalism Deactivation\s*new\s*\$7\.50 \/ device \/ month/,
    );
    expect(await other.locator('li[data-plan="ble-tracking"]').innerText()).toMatch(
      /^BLE Tracking\s*\$3\.00 \/ device \/ month$/,
    );
    const badged = other.locator('li', { has: page.getByText('new', { exact: true }) });
    expect(await badged.count()).toBe(1);
    expect(await badged.getAttribute('data-plan')).toBe('vandalism-deactivation');
    expect(await other.locator('li[data-plan="geolocation"]').innerText()).toMatch(/Geolocation\s*TBA/);
    expect(await other.locator('li', { hasText: 'TBA' }).count()).toBe(5);
    expect(await seriousAxe(page, '[data-testid="subscriptions"]')).toEqual([]);
    await screenshot(page, 'billing-subscriptions-1280');

    // Edit: choose devices per plan; the summary adds them up.
    await tab(page).getByRole('button', { name: 'Edit' }).click();
    const choose = section(page, 'Add devices to a plan');
    const basic = choose.locator('[data-plan="basic-plan"] button');
    await expect.poll(() => basic.innerText()).toContain('All devices on this plan');
    expect(await basic.isDisabled()).toBe(true);
    const support = choose.locator('[data-plan="support-plan"]');
    await support.getByRole('button').click();
    const boxes = support.getByRole('checkbox');
    await boxes.nth(1).check();
    await boxes.nth(2).check();
    const maintenance = choose.locator('[data-plan="maintenance"]');
    await maintenance.getByRole('button').click();
    // One plan open at a time: opening Maintenance closed 8x7 support, its choice kept.
    expect(await support.getByRole('checkbox').count()).toBe(0);
    expect(await support.getByRole('button').innerText()).toMatch(/2 of \d+ devices/);
    await maintenance.getByRole('checkbox').nth(1).check();
    const summary = page.getByTestId('subscriptions-summary');
    await expect.poll(() => summary.getByTestId('summary-total').innerText()).toBe('$1,987.50');
    expect(await summary.innerText()).toMatch(/8x7 support\s*2 devices · \$1,980\.00 flat\s*\$1,980\.00/);
    expect(await seriousAxe(page, '[data-testid="subscriptions"]')).toEqual([]);
    await screenshot(page, 'billing-editing-1280');

    // Save returns to read-only; the summary stays with its checkout.
    await tab(page).getByRole('button', { name: 'Save' }).click();
    expect(await section(page, 'Add devices to a plan').count()).toBe(0);
    await summary.getByRole('button', { name: 'Check out' }).click();
    await expect
      .poll(() => summary.getByRole('status').innerText(), { timeout: 10_000 })
      .toMatch(/2 bills issued, due \d{1,2} [A-Z][a-z]{2} \d{4}/);
    await expect.poll(() => pending.locator('article').count()).toBe(4);
    const supportBill = pending.locator('article', { hasText: '8x7 support' });
    expect(await supportBill.innerText()).toMatch(/Pending[\s\S]*2 devices · \$1,980\.00 \/ month/);

    // Mark paid: the bill leaves Pending and 8x7 support is in force for its two devices.
    await supportBill.getByRole('button', { name: /Mark paid/ }).click();
    await expect
      .poll(() => active.locator('tr[data-plan="support-plan"] td').allInnerTexts(), { timeout: 10_000 })
      .toEqual(['2', '$1,980.00 flat']);
    await expect.poll(() => pending.locator('article').count()).toBe(3);
    await summary.getByRole('button', { name: 'OK' }).click();
    expect(await summary.count()).toBe(0);
  });

  it('reads at tablet width, and a client checks out its own devices (no Mark paid)', async () => {
    const page = await openSubscriptions('client@demo.test', TABLET);
    // By keyboard: Edit, then Tab through the plans to BLE Tracking, open it, Select all with Space; focus shows.
    await tab(page).getByRole('button', { name: 'Edit' }).focus();
    await page.keyboard.press('Enter');
    const ble = section(page, 'Add devices to a plan').locator('[data-plan="ble-tracking"]');
    await ble.getByRole('button').waitFor();
    for (let i = 0; i < 12 && !(await ble.getByRole('button').evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    expect(await ble.getByRole('button').evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await ble.getByRole('button').evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    const count = await ble.getByRole('checkbox').count();
    const total = page.getByTestId('summary-total');
    await expect.poll(() => total.innerText()).toBe(`$${((count - 1) * 3).toFixed(2)}`);
    await screenshot(page, 'billing-client-editing-820');
    await page.getByTestId('subscriptions-summary').getByRole('button', { name: 'Check out' }).click();
    const pending = section(page, 'Pending Subscriptions');
    await expect.poll(() => pending.locator('article', { hasText: 'BLE Tracking' }).count(), { timeout: 10_000 }).toBe(1);
    expect(await pending.getByRole('button', { name: /Mark paid/ }).count()).toBe(0);
    const width = await page.getByTestId('dashboard-panel').evaluate((el) => el.getBoundingClientRect().right);
    expect(width).toBeLessThanOrEqual(820);
    expect(await seriousAxe(page, '[data-testid="subscriptions"]')).toEqual([]);
    await screenshot(page, 'billing-client-checked-out-820');
  });

  it('is not offered to market-partner users', async () => {
    const page = await e2e.openPage();
    await signInToMap(page, 'partner@demo.test');
    await page.getByRole('tab', { name: 'OVERVIEW' }).waitFor();
    expect(await page.getByRole('tab', { name: 'SUBSCRIPTIONS' }).count()).toBe(0);
  });
});

describe('the overdue rule in the browser', () => {
  it('an overdue account gets the Account Deactivated dialog at sign-in', async () => {
    const page = await e2e.openPage();
    await signIn(page, 'overdue@demo.test');
    await deactivatedDialog(page).waitFor({ timeout: 10_000 });
    expect(await deactivatedDialog(page).innerText()).toContain('15 days over its due date');
    expect(await seriousAxe(page, 'dialog[open]')).toEqual([]);
    await screenshot(page, 'billing-overdue-sign-in-1280');
  });

  it('a user on the map whose account the overdue job deactivates gets the dialog at once; payment re-activates it', async () => {
    const h = e2e.portal.harness;
    const token = await apiToken(e2e.portal, 'client2@demo.test');
    const list = await request(h.app).get('/api/v1/device').set('Authorization', `Token ${token}`);
    expect(list.status, JSON.stringify(list.body).slice(0, 200)).toBe(200);
    const serial = (list.body as { serial: string }[])[0]!.serial;
    const created = await request(h.app)
      .post('/api/v1/create_bill')
      .set('Authorization', `Token ${token}`)
      .send({
        bill_uid: 'e2e-client2',
        product_name: 'support-plan',
        price_usd: 1980,
        name: '8x7 support',
        device_serial_list: [serial],
      });
    expect(created.status).toBe(201);
    const clientId = ((await request(h.app).get('/api/v1/user').set('Authorization', `Token ${token}`)).body as { id: number })
      .id;

    const page = await e2e.openPage();
    await signInToMap(page, 'client2@demo.test');
    await page.waitForFunction(() => document.cookie.includes('userToken'));
    // Let the page open its socket before the job runs.
    await expect.poll(() => rt.io.fetchSockets().then((s) => s.length), { timeout: 15_000 }).toBeGreaterThan(0);

    const due = new Date(`${created.body.due_date}T09:00:00Z`);
    const ctx = { db: h.database.db, config: h.config, sessions: hub, log: () => undefined };
    // Day 14: nothing happens.
    expect(await overdueTick({ ...ctx, now: () => new Date(due.getTime() + 14 * 86_400_000) })).toMatchObject({
      ran: true,
      deactivated: [],
    });
    // Real time on purpose: a check that no push comes can only wait (a loaded host makes it laxer, never a
    // false failure); the positive case below waits for the dialog itself.
    await page.waitForTimeout(1500);
    expect(await deactivatedDialog(page).count()).toBe(0);
    // Day 15: deactivated; the sockets close and the dialog shows without any click or reload.
    const started = Date.now();
    const tick = await overdueTick({ ...ctx, now: () => new Date(due.getTime() + 15 * 86_400_000) });
    // (The bills this file's earlier tests left unpaid, due the same day, deactivate their payers too.)
    const me = (await request(h.app).get('/api/v1/user').set('Authorization', `Token ${token}`)).body as
      { id: number } | undefined;
    expect(tick).toMatchObject({ ran: true, deactivated: expect.arrayContaining([clientId]) });
    expect(me?.id).toBeUndefined();
    await deactivatedDialog(page).waitFor({ timeout: 5_000 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(new URL(page.url()).searchParams.get('showDeactivatedModal')).toBe('true');
    expect((await request(h.app).get('/api/v1/user').set('Authorization', `Token ${token}`)).status).toBe(403);
    // The dialog fades in over the sign-in form: shot once it is opaque, not half-way through.
    await animationsSettled(page);
    await screenshot(page, 'billing-deactivated-on-map-1280');

    // The provider's signed webhook pays the bill: the account is active again and can sign in.
    const body = JSON.stringify({ event_id: 'e2e-evt-1', type: 'bill.paid', bill_uid: 'e2e-client2' });
    const ts = Math.floor(Date.now() / 1000);
    const paid = await request(h.app)
      .post(WEBHOOK_PATH)
      .set({
        'Content-Type': 'application/json',
        'X-Billing-Timestamp': String(ts),
        'X-Billing-Signature': signWebhook(h.config.billing.webhookSecret!, ts, body),
      })
      .send(body);
    expect(paid.body).toMatchObject({ reactivated: true });
    await deactivatedDialog(page).getByRole('button', { name: 'Close' }).click();
    await signInToMap(page, 'client2@demo.test');
    expect(await deactivatedDialog(page).count()).toBe(0);
  });
});
