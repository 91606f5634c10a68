/**
 * Alerts in a real browser (issue 43): a device's check-in reporting a low battery raises an incident on
 * the check-in path; the real push server (attached to the portal, with the app's session hub) carries the
 * in-app notice to the bell of the client whose brand the device is, within seconds, while the distributor
 * acknowledges and resolves it from the Incidents view (a Resolve without a note first: the message beside
 * the field). Screenshots at 1440x900, 820x1180 and 390x844 (bell, list, detail, Account Settings' rules); axe.
 */
import type { Page } from 'playwright-core';
import { sql } from 'drizzle-orm';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seriousAxe, startE2E, type E2E } from './browser.ts';
import { startPortalPushes } from './server.ts';

let e2e: E2E;
let rt: Awaited<ReturnType<typeof startPortalPushes>>;
let stopAlerts: (() => Promise<void>) | undefined;
const PERIODS = { device: 1_000, simLog: 1_500, deviceCards: 1_000, overview: 1_000 };
const SIZES = [
  [1440, 900],
  [820, 1180],
  [390, 844],
] as const;

beforeAll(async () => {
  e2e = await startE2E();
  rt = await startPortalPushes(e2e.portal, PERIODS, 100, { sessions: e2e.portal.app.sessions });
  stopAlerts = e2e.portal.app.alerts.start({ dispatchEveryMs: 250 });
});
afterAll(async () => {
  await stopAlerts?.();
  await e2e?.closeClients();
  await rt?.close().catch(() => undefined);
  await e2e?.close();
});
afterEach(async () => {
  await e2e.closeContexts();
});

const bell = (page: Page) => page.getByRole('button', { name: /^Notifications/ });
const rows = async <T>(q: ReturnType<typeof sql>) =>
  ((await e2e.portal.harness.database.db.execute(q)) as unknown as { rows: T[] }).rows;

/** A device of the client's brands, its check-in secret, and a check-in that reports a low battery. */
async function lowBatteryCheckIn(): Promise<string> {
  const app = e2e.portal.harness.app;
  const [device] = await rows<{ serial: string }>(
    sql`select d.serial from devices d join brand_clients bc on bc.brand_id = d.brand_id join users u on u.id = bc.user_id
        where u.email = 'client@demo.test' and d.group_id is not null order by d.id limit 1`,
  );
  const admin = (await request(app).post('/auth/token/login/').send({ email: 'distributor@demo.test', password: 'Demo1234' }))
    .body.auth_token;
  const secret = (await request(app).post(`/api/v1/deviceSecret/${device!.serial}`).set('Authorization', `Token ${admin}`)).body
    .secret;
  const at = new Date().toISOString();
  const res = await fetch(`${e2e.portal.baseURL}/device/v1/checkin`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Authorization: `Basic ${Buffer.from(`${device!.serial}:${secret}`).toString('base64')}`,
    },
    body: JSON.stringify({ sentAt: at, batteries: [{ at, volt: 3.4, percent: 20 }] }),
  });
  expect(res.status).toBe(200);
  return device!.serial;
}

describe('alerts in the browser', () => {
  it("a check-in's incident reaches another user's bell within seconds; acknowledged and resolved from the UI", async () => {
    const client = await e2e.openSignedIn('client@demo.test', '/', { viewport: { width: 1440, height: 900 } });
    const distributor = await e2e.openSignedIn('distributor@demo.test', '/', { viewport: { width: 1440, height: 900 } });
    await expect.poll(() => bell(client).getAttribute('aria-label'), { timeout: 30_000 }).toMatch(/^Notifications, /);
    await expect.poll(() => bell(distributor).getAttribute('aria-label'), { timeout: 30_000 }).toMatch(/^Notifications, /);
    const unread = async (page: Page) => {
      const label = (await bell(page).getAttribute('aria-label')) ?? '';
      return label.endsWith('none unread') ? 0 : Number(label.match(/(\d+) unread/)?.[1] ?? NaN);
    };
    const before = await unread(client);
    // Both sockets are in: the push server has the users' rooms (the bell's first read is over REST).
    await client.waitForTimeout(500);

    const started = Date.now();
    const serial = await lowBatteryCheckIn();
    await expect.poll(() => unread(client), { timeout: 10_000, interval: 100 }).toBe(before + 1);
    const seconds = (Date.now() - started) / 1000;
    expect(seconds).toBeLessThan(10);
    expect(await client.getByRole('status').filter({ hasText: 'New warning incident' }).textContent()).toContain(serial);
    await expect.poll(() => unread(distributor), { timeout: 10_000 }).toBeGreaterThan(0);
    await screenshot(client, 'alerts-bell-1440');

    // The distributor opens the bell: the Incidents view, open incidents, times in one named zone.
    await bell(distributor).click();
    const view = distributor.getByRole('dialog', { name: 'Incidents' });
    const row = view.getByTestId('incident-row').filter({ hasText: serial });
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    expect(await view.getByTestId('incidents-zone').textContent()).toMatch(/^Times in \S+/);
    await expect.poll(() => unread(distributor), { timeout: 15_000 }).toBe(0);
    // Filters: Critical hides this warning, Warning shows it.
    await view.getByLabel('Severity').selectOption('critical');
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0);
    await view.getByLabel('Severity').selectOption('warning');
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    for (const [width, height] of SIZES) {
      await distributor.setViewportSize({ width, height });
      await screenshot(distributor, `alerts-list-${width}`);
    }
    expect(await seriousAxe(distributor, '[data-testid="incidents"]')).toEqual([]);
    await distributor.setViewportSize({ width: 1440, height: 900 });

    await row.click();
    await expect
      .poll(() => view.getByTestId('incident-reason').textContent(), { timeout: 15_000 })
      .toContain(`Low battery (${serial})`);
    const timeline = view.getByTestId('incident-timeline');
    await expect.poll(() => timeline.textContent(), { timeout: 15_000 }).toContain('Raised');
    await view.getByRole('button', { name: 'Acknowledge' }).click();
    await expect
      .poll(() => view.getByTestId('incident-answer').textContent(), { timeout: 15_000 })
      .toBe('Acknowledged. Escalation stops.');
    expect(await view.getByTestId('incident-state').textContent()).toMatch(/^Acknowledged by /);
    await expect.poll(() => timeline.textContent(), { timeout: 15_000 }).toMatch(/Acknowledged/);

    await view.getByLabel('Comment').fill('Battery swap on the next visit.');
    await view.getByRole('button', { name: 'Add comment' }).click();
    await expect.poll(() => view.getByTestId('incident-answer').textContent(), { timeout: 15_000 }).toBe('Comment added.');
    await expect.poll(() => timeline.textContent(), { timeout: 15_000 }).toContain('Battery swap on the next visit.');

    // Resolve without a note: the server's 400 is shown under the note's field.
    await view.getByRole('button', { name: 'Resolve' }).click();
    const note = view.getByLabel('Resolution note');
    await expect.poll(() => note.getAttribute('aria-invalid'), { timeout: 15_000 }).toBe('true');
    const described = await note.getAttribute('aria-describedby');
    expect((await distributor.locator(`[id="${described}"]`).textContent())?.length).toBeGreaterThan(0);
    for (const [width, height] of SIZES) {
      await distributor.setViewportSize({ width, height });
      await screenshot(distributor, `alerts-detail-${width}`);
    }
    expect(await seriousAxe(distributor, '[data-testid="incidents"]')).toEqual([]);
    await distributor.setViewportSize({ width: 1440, height: 900 });

    await note.fill('Battery replaced.');
    await view.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => view.getByTestId('incident-answer').textContent(), { timeout: 15_000 }).toBe('Resolved.');
    expect(await view.getByTestId('incident-state').textContent()).toMatch(/^Resolved/);
    await expect.poll(() => timeline.textContent(), { timeout: 15_000 }).toContain('Battery replaced.');
    const [saved] = await rows<{ state: string }>(
      sql`select i.state from incidents i join alerts a on a.incident_id = i.id join devices d on d.id = a.device_id where d.serial = ${serial} and a.condition = 'BATTERY'`,
    );
    expect(saved!.state).toBe('resolved');
  });

  it('notification rules in Account Settings: a bad scope is refused beside its field, a good rule is saved', async () => {
    const page = await e2e.openSignedIn('distributor@demo.test', '/', { viewport: { width: 1440, height: 900 } });
    await page.getByTestId('profile-image').click();
    const dialog = page.getByRole('dialog', { name: 'User Management' });
    await dialog.getByRole('button', { name: 'Account Settings' }).click();
    const rules = dialog.getByTestId('notification-rules');
    await expect.poll(() => rules.getByTestId('notification-rule').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await expect.poll(() => dialog.getByTestId('escalation-policy').isVisible(), { timeout: 15_000 }).toBe(true);
    await rules.getByRole('button', { name: 'Add rule' }).click();
    const rule = rules.getByTestId('notification-rule').last();
    await rule.getByLabel('Condition').selectOption('OFFLINE');
    await rule.getByRole('checkbox', { name: /^Email/ }).check();
    await rule.getByRole('checkbox', { name: /^Hold email/ }).check();
    await rule.getByLabel('From', { exact: true }).fill('22:00');
    await rule.getByLabel('To', { exact: true }).fill('22:00');
    await rules.getByRole('button', { name: 'Save notifications' }).click();
    await expect
      .poll(() => rules.getByTestId('rules-answer').textContent())
      .toBe('Not saved: see the messages beside the fields.');
    await expect
      .poll(() => rule.textContent(), { timeout: 15_000 })
      .toContain('Quiet hours must start and end at different times.');
    await rule.getByLabel('To', { exact: true }).fill('06:30');
    await rules.getByRole('button', { name: 'Save notifications' }).click();
    await expect
      .poll(() => rules.getByTestId('rules-answer').textContent(), { timeout: 15_000 })
      .toBe('Notification rules saved.');
    const [saved] = await rows<{ rules: { condition: string; quietHours: { from: string; to: string } | null }[] }>(
      sql`select r.rules from notification_rules r join users u on u.id = r.user_id where u.email = 'distributor@demo.test'`,
    );
    expect(saved!.rules.at(-1)).toMatchObject({ condition: 'OFFLINE', quietHours: { from: '22:00', to: '06:30' } });
    for (const [width, height] of SIZES) {
      await page.setViewportSize({ width, height });
      await rules.scrollIntoViewIfNeeded();
      await screenshot(page, `alerts-rules-${width}`);
    }
    expect(await seriousAxe(page, '[data-testid="notification-rules"]')).toEqual([]);
  });

  it("the portal's push worker (scope /push/) shows a pushed incident and controls no page", async () => {
    const page = await e2e.openPage({ width: 1440, height: 900 }, '/', (context) => context.grantPermissions(['notifications']));
    const cdp = await page.context().newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
    await cdp.send('ServiceWorker.enable');
    const scope = await page.evaluate(async () => {
      const reg = await navigator.serviceWorker.register('/push-sw.js', { scope: '/push/' });
      for (let i = 0; i < 100 && reg.active?.state !== 'activated'; i++) await new Promise((r) => setTimeout(r, 100));
      return reg.scope;
    });
    expect(new URL(scope).pathname).toBe('/push/');
    await expect
      .poll(() => registrations.find((r) => new URL(r.scopeURL).pathname === '/push/')?.registrationId, { timeout: 15_000 })
      .toBeTruthy();
    const registrationId = registrations.find((r) => new URL(r.scopeURL).pathname === '/push/')!.registrationId;
    // What the server's push channel sends (server/src/alerts/channels.ts), delivered to the worker's push event.
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: e2e.portal.baseURL,
      registrationId,
      data: JSON.stringify({
        title: 'Critical incident at Audubon Park',
        body: 'Offline at 3 devices',
        tag: 'incident-9',
        url: '/',
      }),
    });
    const shown = () =>
      page.evaluate(async () => {
        const reg = await navigator.serviceWorker.getRegistration('/push/');
        return (await reg!.getNotifications()).map((n) => `${n.title}: ${n.body}`);
      });
    await expect.poll(shown, { timeout: 10_000 }).toEqual(['Critical incident at Audubon Park: Offline at 3 devices']);
    // It controls no page: the map page (and /maintenance, the field app's own worker's scope) are not its.
    expect(await page.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
  });
});
