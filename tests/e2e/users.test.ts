/**
 * User Management in a real browser (spec sections 2, 4, 6, 8): a distributor works a sign-up request
 * through the dialog (View Detail, Edit Request + Save, Activate Account or Reject) and the person gets
 * the mail and signs in (or is refused); Account Settings saves the own phone and a report switch; a
 * market-partner user has no sign-up list; a client's profile image opens its own Account Settings only. The left menu's disabled
 * items, Exit and a click outside; Edit Request then Cancel restores what was shown. Axe on the dialog,
 * screenshots at 1280 and 820 px in tests/.artifacts.
 */
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/src/db/schema.ts';
import { mailText } from '../helpers/smtp.ts';
import {
  animationsSettled,
  DESKTOP,
  formMessage,
  screenshot,
  seriousAxe,
  signIn,
  signInToMap,
  startE2E,
  TABLET,
  type E2E,
} from './browser.ts';

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

const dialogOf = (page: Page) => page.getByRole('dialog', { name: 'User Management' });

const seriousViolations = (page: Page) => seriousAxe(page, '[role="dialog"]');

/** A sign-up made the way the auth modal makes it (POST /auth/users/). */
async function signUp(email: string, username: string) {
  const res = await request(e2e.portal.baseURL)
    .post('/auth/users/')
    .send({
      email,
      username,
      password: 'Signup123',
      company: `${username} Ltd`,
      phone: '',
      isEnableNotificationEmail: true,
      isEnableNotificationPhone: false,
    });
  expect(res.status).toBe(201);
}

const mailsTo = (email: string) =>
  e2e.portal.harness.smtp.received.filter((m) => m.to.includes(email)).map((m) => mailText(m.raw));

async function openUserManagement(page: Page, email: string, viewport = DESKTOP) {
  await page.setViewportSize(viewport);
  await signInToMap(page, email);
  await page.getByTestId('profile-image').click();
  await dialogOf(page).waitFor();
  return dialogOf(page);
}

describe('sign-up requests (distributor)', () => {
  it('View Detail -> Edit Request + Save -> Activate Account -> the mail -> that person signs in', async () => {
    const email = 'nia.newcomer@signup.test';
    await signUp(email, 'Nia Newcomer');
    const page = await e2e.openPage();
    const dialog = await openUserManagement(page, 'distributor@demo.test');
    const requests = dialog.getByTestId('sign-up-requests');
    const row = requests.locator(`tr[data-email="${email}"]`);
    await row.waitFor();
    expect(await row.locator('td').allTextContents()).toEqual([
      `Nia Newcomer${email}`,
      'Nia Newcomer Ltd',
      'Client',
      'View Detail',
    ]);
    // The client list: Client and Brand List, Edit Account, and the three not-built actions in the disabled look.
    const clientRow = dialog.getByTestId('client-list').locator('tr[data-email="client@demo.test"]');
    expect(await clientRow.locator('td').nth(1).textContent()).toBe('Gulf Shield SPF, SunStop');
    for (const label of ['Disable Account', 'Delete Account', 'Remote Control']) {
      expect(await dialog.getByTestId('client-list').getByRole('button', { name: label }).getAttribute('aria-disabled')).toBe(
        'true',
      );
    }
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'user-management-lists-1280x800');

    await row.getByRole('button', { name: `View Detail of ${email}` }).click();
    const detail = dialog.getByTestId('request-detail');
    await detail.waitFor();
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).toBe('Nia Newcomer');
    expect(await dialog.getByLabel('Password', { exact: true }).inputValue()).toBe('••••••••');
    expect(await dialog.getByLabel('User Type', { exact: true }).inputValue()).toBe('Client');
    expect(await dialog.getByLabel('Company', { exact: true }).getAttribute('readonly')).not.toBeNull();
    expect(await dialog.getByRole('button', { name: 'Email notification' }).getAttribute('aria-pressed')).toBe('true');
    for (const name of ['Reject', 'Edit Request', 'Activate Account'])
      await dialog.getByRole('button', { name, exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'user-management-request-detail-1280x800');

    // Edit Request, change fields, Cancel: the shown values come back and the fields lock again.
    const company = dialog.getByLabel('Company', { exact: true });
    const phone = dialog.getByLabel('Phone', { exact: true });
    const phoneNotification = dialog.getByRole('button', { name: 'Phone notification' });
    const shown = {
      company: await company.inputValue(),
      phone: await phone.inputValue(),
      notify: await phoneNotification.getAttribute('aria-pressed'),
    };
    expect(shown.company).toBe('Nia Newcomer Ltd');
    await dialog.getByRole('button', { name: 'Edit Request' }).click();
    await company.fill('Changed My Mind Inc.');
    await phone.fill('+1 504 555 0100');
    await phoneNotification.click();
    expect(await phoneNotification.getAttribute('aria-pressed')).not.toBe(shown.notify);
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.getByRole('button', { name: 'Edit Request' }).waitFor();
    expect({
      company: await company.inputValue(),
      phone: await phone.inputValue(),
      notify: await phoneNotification.getAttribute('aria-pressed'),
    }).toEqual(shown);
    expect(await company.getAttribute('readonly')).not.toBeNull();
    expect((await e2e.portal.harness.database.db.select().from(users).where(eq(users.email, email)))[0]!.company).toBe(
      'Nia Newcomer Ltd',
    );

    await dialog.getByRole('button', { name: 'Edit Request' }).click();
    await dialog.getByLabel('Company', { exact: true }).fill('Newcomer Beach Co.');
    await dialog.getByLabel('Phone', { exact: true }).fill('+1 504 555 0188');
    await dialog.getByRole('button', { name: 'Phone notification' }).click();
    await screenshot(page, 'user-management-request-editing-1280x800');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await dialog.getByRole('button', { name: 'Activate Account' }).waitFor();
    const [edited] = await e2e.portal.harness.database.db.select().from(users).where(eq(users.email, email));
    expect(edited).toMatchObject({
      company: 'Newcomer Beach Co.',
      phone: '+1 504 555 0188',
      notifyPhone: true,
      notifyEmail: true,
      activated: false,
    });

    await dialog.getByRole('button', { name: 'Activate Account' }).click();
    const result = page.getByRole('dialog', { name: `${email} has been activated!` });
    await result.waitFor();
    expect(await result.getByTestId('decision-result').getAttribute('data-tone')).toBe('success');
    await screenshot(page, 'user-management-activated-1280x800');
    // The lists come back, without the request and with the new client.
    await dialog.getByTestId('client-list').locator(`tr[data-email="${email}"]`).waitFor();
    expect(await requests.locator(`tr[data-email="${email}"]`).count()).toBe(0);

    await expect.poll(() => mailsTo(email).length, { timeout: 10_000 }).toBe(1);
    expect(mailsTo(email)[0]).toContain('Your account has been activated');

    const newcomer = await e2e.openPage();
    await signIn(newcomer, email, 'Signup123');
    await newcomer.locator('[data-testid="fleet-map"][data-pin-count]').waitFor({ timeout: 30_000 });
    expect(await newcomer.getByTestId('user-role').textContent()).toContain('Newcomer Beach Co.');
  });

  it('Reject asks first, says "{email} has been rejected!", mails the person, and their sign-in is refused', async () => {
    const email = 'rory.refused@signup.test';
    await signUp(email, 'Rory Refused');
    const page = await e2e.openPage();
    const dialog = await openUserManagement(page, 'distributor@demo.test');
    await dialog.getByRole('button', { name: `View Detail of ${email}` }).click();
    await dialog.getByRole('button', { name: 'Reject', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Reject this sign-up request?' });
    await confirm.waitFor();
    await confirm.getByRole('button', { name: 'Yes' }).click();
    await page.getByRole('dialog', { name: `${email} has been rejected!` }).waitFor();
    await dialog.getByTestId('sign-up-requests').waitFor();
    expect(await dialog.locator(`tr[data-email="${email}"]`).count()).toBe(0);
    await expect.poll(() => mailsTo(email).length, { timeout: 10_000 }).toBe(1);
    expect(mailsTo(email)[0]).toContain('Your sign-up request was not approved');

    const refused = await e2e.openPage();
    await signIn(refused, email, 'Signup123');
    await formMessage(refused).waitFor();
    expect(await formMessage(refused).textContent()).toBe(
      'Your sign-up request was not approved. Please contact your distributor.',
    );
    expect(await refused.getByRole('dialog', { name: 'Account Deactivated' }).count()).toBe(0);
  });

  it('Edit Account of a client opens always editable and saves', async () => {
    const page = await e2e.openPage();
    const dialog = await openUserManagement(page, 'distributor@demo.test', TABLET);
    await dialog.getByRole('button', { name: 'Edit Account of client2@demo.test' }).click();
    await dialog.getByTestId('request-detail').waitFor();
    expect(await dialog.getByRole('heading', { name: 'Edit Account' }).count()).toBe(1);
    await dialog.getByLabel('Phone', { exact: true }).fill('+1 985 555 0999');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'user-management-edit-account-820x1180');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect
      .poll(
        async () =>
          (await e2e.portal.harness.database.db.select().from(users).where(eq(users.email, 'client2@demo.test')))[0]?.phone,
      )
      .toBe('+1 985 555 0999');
    // Still editable after the save (account-edit mode).
    expect(await dialog.getByLabel('Phone', { exact: true }).getAttribute('readonly')).toBeNull();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.getByTestId('client-list').waitFor();
  });

  it('renders the lists inside the window at 820 px', async () => {
    const page = await e2e.openPage(TABLET);
    const dialog = await openUserManagement(page, 'distributor@demo.test', TABLET);
    await dialog.getByTestId('client-list').locator('tr').nth(1).waitFor();
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(TABLET.width);
    await animationsSettled(page);
    await screenshot(page, 'user-management-lists-820x1180');

    // The left menu: Company and SunStop Admin in the same disabled look, and clicking them changes nothing.
    const menu = dialog.getByRole('navigation', { name: 'User Management' });
    const look = (name: string) =>
      menu.getByRole('button', { name, exact: true }).evaluate((el) => {
        const style = getComputedStyle(el);
        return { disabled: el.getAttribute('aria-disabled'), color: style.color, opacity: style.opacity, cursor: style.cursor };
      });
    const company = await look('Company');
    expect(company).toMatchObject({ disabled: 'true', cursor: 'not-allowed' });
    expect(await look('SunStop Admin')).toEqual(company);
    expect((await look('Account Settings')).opacity).not.toBe(company.opacity);
    // Playwright counts aria-disabled as disabled and would wait: the click is forced, as a person's lands anyway.
    await menu.getByRole('button', { name: 'SunStop Admin', exact: true }).click({ force: true });
    expect(await menu.getByRole('button', { name: 'Sign Up Request' }).getAttribute('aria-current')).toBe('page');
    await dialog.getByTestId('client-list').waitFor();

    // Exit closes the dialog; so does a click outside it.
    await menu.getByRole('button', { name: 'Exit', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('profile-image').click();
    await dialog.waitFor();
    await animationsSettled(page);
    const at = (await dialog.boundingBox())!;
    // Below the dialog when it leaves room there, else above it.
    const y = at.y + at.height + 20 < TABLET.height ? at.y + at.height + 10 : at.y / 2;
    expect(y < at.y || y > at.y + at.height).toBe(true);
    await page.mouse.click(TABLET.width / 2, y);
    await dialog.waitFor({ state: 'hidden' });
  });
});

describe('on a phone', () => {
  it('the menu flows in rows above the section, every item in sight; nothing wider than the screen', async () => {
    const PHONE = { width: 375, height: 667 };
    const page = await e2e.openPage(PHONE);
    const dialog = await openUserManagement(page, 'distributor@demo.test', PHONE);
    await dialog.getByTestId('client-list').waitFor();
    const menu = dialog.getByRole('navigation', { name: 'User Management' });
    const frame = (await dialog.boundingBox())!;
    const items = await menu
      .getByRole('button')
      .evaluateAll((els) =>
        els.map((el) => el.getBoundingClientRect()).map((r) => ({ top: Math.round(r.top), left: r.left, right: r.right })),
      );
    expect(items.length).toBe(5);
    for (const item of items) expect(item.left >= frame.x && item.right <= frame.x + frame.width).toBe(true);
    // Stacked, the five items took 240 px before the section began (its heading at 325 px).
    expect(new Set(items.map((i) => i.top)).size).toBeLessThanOrEqual(3);
    const heading = await dialog.getByRole('heading', { name: 'Sign Up Request' }).boundingBox();
    expect(heading!.y).toBeLessThan(260);
    const overflow = () =>
      dialog.evaluate((el) => ({
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        dialog: el.scrollWidth - el.clientWidth,
      }));
    expect(await overflow()).toEqual({ page: 0, dialog: 0 });
    await menu.getByRole('button', { name: 'Account Settings', exact: true }).click();
    await dialog.getByTestId('account-settings').waitFor();
    expect(await menu.getByRole('button', { name: 'Account Settings', exact: true }).getAttribute('aria-current')).toBe('page');
    expect(await overflow()).toEqual({ page: 0, dialog: 0 });
    const field = await dialog.getByRole('textbox', { name: 'Email', exact: true }).boundingBox();
    expect(field!.x).toBeGreaterThan(frame.x);
    expect(field!.x + field!.width).toBeLessThan(frame.x + frame.width);
    await animationsSettled(page);
    await screenshot(page, 'user-management-account-settings-375x667');
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe('account settings', () => {
  it('edits the own phone and the Weekly Report switch, kept after a reload; Escape closes', async () => {
    const page = await e2e.openPage();
    const dialog = await openUserManagement(page, 'distributor@demo.test');
    await dialog.getByRole('button', { name: 'Account Settings', exact: true }).click();
    const settings = dialog.getByTestId('account-settings');
    await settings.waitFor();
    expect(await dialog.getByLabel('User Type', { exact: true }).inputValue()).toBe('Distributor');
    expect(await dialog.getByRole('textbox', { name: 'Email', exact: true }).inputValue()).toBe('distributor@demo.test');
    for (const name of ['Edit Account', 'Logout Account', 'Back'])
      await settings.getByRole('button', { name, exact: true }).waitFor();
    const weekly = settings.getByRole('button', { name: 'Weekly Report' });
    expect(await weekly.isDisabled()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'user-management-account-settings-1280x800');

    await settings.getByRole('button', { name: 'Edit Account' }).click();
    await dialog.getByLabel('Phone', { exact: true }).fill('+1 504 555 0123');
    const before = await weekly.getAttribute('aria-pressed');
    await weekly.click();
    await screenshot(page, 'user-management-account-editing-1280x800');
    await settings.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('account-saved').filter({ hasText: 'Account saved.' }).waitFor();

    await page.reload();
    await page.locator('[data-testid="fleet-map"][data-pin-count]').waitFor({ timeout: 30_000 });
    await page.getByTestId('profile-image').click();
    await dialogOf(page).getByRole('button', { name: 'Account Settings', exact: true }).click();
    expect(await dialogOf(page).getByLabel('Phone', { exact: true }).inputValue()).toBe('+1 504 555 0123');
    expect(await dialogOf(page).getByRole('button', { name: 'Weekly Report' }).getAttribute('aria-pressed')).toBe(
      before === 'true' ? 'false' : 'true',
    );
    const [saved] = await e2e.portal.harness.database.db.select().from(users).where(eq(users.email, 'distributor@demo.test'));
    expect(saved!.notifyWeeklyReport).toBe(before !== 'true');

    await page.keyboard.press('Escape');
    await dialogOf(page).waitFor({ state: 'hidden' });
  });

  it('a new profile image shows in the profile panel; a PHP file named .png is refused', async () => {
    const page = await e2e.openPage(TABLET);
    const dialog = await openUserManagement(page, 'partner@demo.test', TABLET);
    // A market-partner user has no sign-up request list (spec section 6).
    await dialog.getByText('Sign-up requests and client accounts are managed by your distributor.', { exact: false }).waitFor();
    expect(await dialog.getByTestId('sign-up-requests').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'user-management-partner-820x1180');

    await dialog.getByRole('button', { name: 'Account Settings', exact: true }).click();
    expect(await dialog.getByLabel('User Type', { exact: true }).inputValue()).toBe('Market Partner');
    await dialog.getByRole('button', { name: 'Edit Account' }).click();
    const input = dialog.locator('input[type="file"]');
    await input.setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: Buffer.from('<?php echo 1; ?>') });
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('account-error').waitFor();
    expect(await page.getByTestId('account-error').textContent()).toBe('Upload a PNG, JPEG, GIF or WebP image.');

    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    await input.setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: png });
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('account-saved').filter({ hasText: 'Account saved.' }).waitFor();
    await expect
      .poll(() => page.getByTestId('profile-image').locator('img').getAttribute('src'))
      .toMatch(/^\/uploads\/profiles\/[0-9a-f]{32}\.png$/);
    await screenshot(page, 'user-management-account-settings-820x1180');
  });
});

describe('User Management loaded on demand', () => {
  it('says when its code could not be downloaded, again at the next click, and Try again loads it', async () => {
    const page = await e2e.openPage();
    await page.setViewportSize(TABLET);
    await signInToMap(page, 'distributor@demo.test');
    // Its own chunk, first asked for by the first click of the profile image (issue 16).
    let offline = true;
    await page.route(/\/assets\/user-management-part-[^/]+\.js$/, (route) =>
      offline ? route.abort('internetdisconnected') : route.continue(),
    );
    await page.getByTestId('profile-image').click();
    const dialog = dialogOf(page);
    await dialog.getByText('User Management could not be loaded.').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await page.getByTestId('profile-image').click();
    await dialog.getByText('User Management could not be loaded.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'user-management-not-loaded-820x1180');
    // Close answers a pointer as Escape did; the next click says it again.
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await page.getByTestId('profile-image').click();
    await dialog.getByText('User Management could not be loaded.').waitFor();
    offline = false;
    await dialog.getByRole('button', { name: 'Try again' }).click();
    await dialog.getByRole('navigation', { name: 'User Management' }).waitFor();
    expect(await dialog.getByText('User Management could not be loaded.').count()).toBe(0);
    // Loaded: Exit closes it and the next click opens it at once.
    await dialog.getByRole('button', { name: 'Exit' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await page.getByTestId('profile-image').click();
    await dialog.getByRole('navigation', { name: 'User Management' }).waitFor();
  });
});

describe('a client', () => {
  it('opens its own Account Settings (no User Management) from the profile image and saves a report switch; the server still refuses the lists', async () => {
    for (const viewport of [DESKTOP, { width: 390, height: 844 }]) {
      const page = await e2e.openPage();
      await page.setViewportSize(viewport);
      await signInToMap(page, 'client@demo.test');
      expect(await page.getByTestId('profile-image').getAttribute('aria-label')).toMatch(/Open Account Settings$/);
      // No 'Market partners' link: that page refuses a client.
      expect(await page.getByRole('link', { name: /Market partners/ }).count()).toBe(0);
      await page.getByTestId('profile-image').click();
      const settings = page.getByRole('dialog', { name: 'Account Settings' });
      await settings.getByRole('button', { name: 'Edit Account' }).waitFor();
      expect(await dialogOf(page).count()).toBe(0);
      expect(await settings.getByRole('navigation', { name: 'User Management' }).count()).toBe(0);
      expect(await seriousAxe(page, '[role="dialog"]')).toEqual([]);
      await screenshot(page, `client-account-settings-${viewport.width}`);
      const overflow = await settings.evaluate((el) => ({
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        dialog: el.scrollWidth - el.clientWidth,
      }));
      expect(overflow).toEqual({ page: 0, dialog: 0 });
      if (viewport === DESKTOP) {
        await settings.getByRole('button', { name: 'Edit Account' }).click();
        const weekly = settings.getByRole('button', { name: 'Weekly Report' });
        const before = await weekly.getAttribute('aria-pressed');
        await weekly.click();
        await settings.getByRole('button', { name: 'Save', exact: true }).click();
        await settings.getByText('Account saved.').waitFor();
        const [row] = await e2e.portal.harness.database.db.select().from(users).where(eq(users.email, 'client@demo.test'));
        expect(String(row!.notifyWeeklyReport)).toBe(before === 'true' ? 'false' : 'true');
      }
      await page.close();
    }
    // The server refuses what a client cannot do, whatever the screen shows.
    const token = (
      await request(e2e.portal.baseURL).post('/auth/token/login/').send({ email: 'client@demo.test', password: 'Demo1234' })
    ).body.auth_token as string;
    for (const path of ['/api/v1/get_pending_user', '/api/v1/myUser']) {
      expect((await request(e2e.portal.baseURL).get(path).set('Authorization', `Token ${token}`)).status, path).toBe(403);
    }
    const other = await request(e2e.portal.baseURL)
      .post('/api/v1/editUser/client2@demo.test')
      .set('Authorization', `Token ${token}`)
      .field('phone', '+1 504 555 0100');
    expect(other.status).toBe(403);
  });
});
