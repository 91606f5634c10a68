/**
 * The login slice in a real browser: the built client served by the portal app over HTTP, driven with
 * Chromium through playwright-core. Needs client/dist (built here when missing) and /usr/bin/chromium
 * (or CHROMIUM_PATH).
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/src/db/schema.ts';
import { CLIENT_DIST, REPO_ROOT, startPortal, type Portal } from './server.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = path.join(REPO_ROOT, 'tests', '.artifacts');
const PASSWORD = 'Demo1234';
const DESKTOP = { width: 1280, height: 800 };
const TABLET = { width: 820, height: 1180 };

let portal: Portal;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  if (!fs.existsSync(path.join(CLIENT_DIST, 'index.html'))) {
    execSync('npm run build -w client', { cwd: REPO_ROOT, stdio: 'inherit' });
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  [portal, browser] = await Promise.all([
    startPortal(),
    chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    }),
  ]);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await portal?.close();
});

afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

async function openPage(viewport = DESKTOP, url = '/'): Promise<Page> {
  const context = await browser.newContext({ viewport, baseURL: portal.baseURL });
  contexts.push(context);
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

const emailField = (page: Page) => page.getByLabel('Email', { exact: true });
const passwordField = (page: Page) => page.getByLabel('Password', { exact: true });
const signInTab = (page: Page) => page.getByRole('tab', { name: 'SIGN IN' });
const deactivatedDialog = (page: Page) => page.getByRole('dialog', { name: 'Account Deactivated' });
const formMessage = (page: Page) => page.locator('[data-tone]');

/** Fills the sign-in form and submits it with the Enter key. */
async function signIn(page: Page, email: string, password = PASSWORD) {
  await emailField(page).fill(email);
  await passwordField(page).fill(password);
  await passwordField(page).press('Enter');
}

async function tokenCookie(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === 'userToken');
}

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

describe('login page', () => {
  it('shows exactly "Incorrect email / password" for a wrong password', async () => {
    const page = await openPage();
    await signIn(page, 'client@demo.test', 'Wrong1234');
    await formMessage(page).waitFor();
    expect(await formMessage(page).textContent()).toBe('Incorrect email / password');
    expect(await tokenCookie(page)).toBeUndefined();
    expect(await signInTab(page).getAttribute('aria-selected')).toBe('true');
  });

  it.each([
    { email: 'distributor@demo.test', role: 'distributor', partner: false },
    { email: 'client@demo.test', role: 'client', partner: false },
    { email: 'partner@demo.test', role: 'distributor', partner: true },
  ])('signs $email in with Enter, shows the shell, and logs out', async ({ email, role, partner }) => {
    const page = await openPage();
    await signIn(page, email.toUpperCase());

    await page.getByText('Signed in as').waitFor();
    const roles = await page.getByTestId('user-role').textContent();
    expect(roles).toContain(role);
    expect(roles?.includes('market-partner')).toBe(partner);
    await page.getByTestId('device-total').waitFor();
    const total = Number(await page.getByTestId('device-total').textContent());
    const online = parseInt((await page.getByTestId('device-online').textContent()) ?? '', 10);
    const offline = parseInt((await page.getByTestId('device-offline').textContent()) ?? '', 10);
    expect(total).toBeGreaterThan(0);
    expect(online + offline).toBe(total);

    const cookie = await tokenCookie(page);
    expect(cookie?.value).toMatch(/^[0-9a-f]{40}$/);
    expect(cookie?.path).toBe('/');
    expect(cookie?.expires).toBe(-1); // a session cookie

    // The stored token signs the page in again after a reload.
    await page.reload();
    await page.getByText('Signed in as').waitFor();

    await page.getByRole('button', { name: 'Logout' }).click();
    await signInTab(page).waitFor();
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await tokenCookie(page)).toBeUndefined();
  });

  it('opens the Account Deactivated dialog for a deactivated account (401 at login)', async () => {
    const page = await openPage();
    await signIn(page, 'overdue@demo.test');
    const dialog = deactivatedDialog(page);
    await dialog.waitFor();
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    const text = (await dialog.textContent()) ?? '';
    expect(text).toContain('15 days');
    expect(text).toMatch(/payment provider/i);
    expect(text).toMatch(/re-activated automatically/i);
    expect(text).toMatch(/support/i);
    expect(await tokenCookie(page)).toBeUndefined();
    await screenshot(page, 'deactivated-dialog-1280x800');

    // Escape closes it too.
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  });

  it('opens the dialog for ?showDeactivatedModal=true, 585 px wide, and Close drops the flag', async () => {
    const page = await openPage(DESKTOP, '/?showDeactivatedModal=true');
    const dialog = deactivatedDialog(page);
    await dialog.waitFor();
    expect(await dialog.evaluate((el) => (el as HTMLElement).offsetWidth)).toBe(585);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).search).toBe('');
    await signInTab(page).waitFor();
  });

  it('sends a stored token of a deactivated account (403) to the dialog', async () => {
    const page = await openPage();
    await signIn(page, 'client2@demo.test');
    await page.getByText('Signed in as').waitFor();
    await portal.harness.database.db.update(users).set({ activated: false }).where(eq(users.email, 'client2@demo.test'));

    await page.reload();
    await deactivatedDialog(page).waitFor();
    expect(new URL(page.url()).searchParams.get('showDeactivatedModal')).toBe('true');
    expect(await tokenCookie(page)).toBeUndefined();
  });

  it('drops a stored token the server refuses (401) and shows the modal', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, baseURL: portal.baseURL });
    contexts.push(context);
    await context.addCookies([{ name: 'userToken', value: 'f'.repeat(40), url: portal.baseURL }]);
    const page = await context.newPage();
    await page.goto('/');
    await signInTab(page).waitFor();
    expect(await tokenCookie(page)).toBeUndefined();
  });

  it('requests a password reset: sent for a known email, incorrect for an unknown one, cleared on edit', async () => {
    const page = await openPage();
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    const send = page.getByRole('button', { name: 'Send Password to Email' });

    await emailField(page).fill('client@demo.test');
    await send.click();
    await page.getByText('Confirmation email has been Sent!', { exact: true }).waitFor();
    await expect.poll(() => portal.harness.smtp.received.some((m) => m.to.includes('client@demo.test'))).toBe(true);

    await emailField(page).fill('nobody@demo.test');
    expect(await formMessage(page).count()).toBe(0);
    await send.click();
    await page.getByText('Email Incorrect!', { exact: true }).waitFor();
    await emailField(page).press('Backspace');
    expect(await formMessage(page).count()).toBe(0);

    await page.getByRole('button', { name: 'Back' }).click();
    await passwordField(page).waitFor();
    expect(await emailField(page).inputValue()).toBe('nobody@demo.tes');
  });

  it('lights the Distributor indicator once typing has paused for 2 s', async () => {
    const page = await openPage();
    const lookups: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/api/v1/checkUser/')) lookups.push(decodeURIComponent(req.url().split('/checkUser/')[1] ?? ''));
    });
    const distributor = page.locator('[data-kind="distributor"]');
    const company = page.locator('[data-kind="company"]');

    await emailField(page).pressSequentially('distributor@demo.test', { delay: 20 });
    await page.waitForTimeout(1000);
    expect(await distributor.getAttribute('data-active')).toBe('false');
    expect(lookups).toEqual([]);

    await expect.poll(() => distributor.getAttribute('data-active'), { timeout: 5000 }).toBe('true');
    expect(await company.getAttribute('data-active')).toBe('false');
    expect(lookups).toEqual(['distributor@demo.test']);

    // A client account lights 'Company' instead.
    await emailField(page).fill('client@demo.test');
    expect(await distributor.getAttribute('data-active')).toBe('false');
    await expect.poll(() => company.getAttribute('data-active'), { timeout: 5000 }).toBe('true');
  });

  it('reaches every control by keyboard with a visible focus ring', async () => {
    const page = await openPage();
    await signInTab(page).waitFor();
    const focusedControl = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        return {
          name: el.getAttribute('aria-label') ?? el.getAttribute('name') ?? el.textContent?.trim() ?? '',
          ring: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
        };
      });

    // Email is focused on load; Tab walks the form, Shift+Tab from Email reaches the selected tab.
    const order: string[] = [];
    for (let step = 0; step < 5; step++) {
      const control = await focusedControl();
      expect(control.ring, `focus ring on ${control.name}`).toBe(true);
      order.push(control.name);
      await page.keyboard.press('Tab');
    }
    expect(order).toEqual(['email', 'password', 'Show password', 'Forgot Password?', 'Login']);

    await emailField(page).focus();
    await page.keyboard.press('Shift+Tab');
    expect(await focusedControl()).toEqual({ name: 'SIGN IN', ring: true });
  });

  it('toggles the password visibility', async () => {
    const page = await openPage();
    await passwordField(page).fill('Secret99');
    const toggle = page.getByRole('button', { name: 'Show password' });
    expect(await passwordField(page).getAttribute('type')).toBe('password');
    await toggle.click();
    expect(await passwordField(page).getAttribute('type')).toBe('text');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
  });

  it('keeps SIGN UP visible but disabled', async () => {
    const page = await openPage();
    const signUp = page.getByRole('tab', { name: 'SIGN UP' });
    expect(await signUp.getAttribute('aria-disabled')).toBe('true');
    expect(await signUp.getAttribute('title')).toBeTruthy();
    await signUp.click({ force: true });
    expect(await signInTab(page).getAttribute('aria-selected')).toBe('true');
    // Arrow keys reach it (its tooltip explains why it is disabled); Enter does not select it.
    await signInTab(page).focus();
    await page.keyboard.press('ArrowRight');
    expect(await signUp.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await signInTab(page).getAttribute('aria-selected')).toBe('true');
    expect(await signUp.getAttribute('aria-selected')).toBe('false');
  });

  it.each([
    { name: '1280x800', viewport: DESKTOP },
    { name: '820x1180', viewport: TABLET },
  ])('renders the login modal and the shell at $name (screenshots in tests/.artifacts)', async ({ name, viewport }) => {
    const page = await openPage(viewport);
    await signInTab(page).waitFor();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    const card = page.locator('section').filter({ has: signInTab(page) });
    const box = await card.boundingBox();
    expect(box).not.toBeNull();
    // Centred horizontally and fully inside the window.
    expect(Math.abs(box!.x + box!.width / 2 - viewport.width / 2)).toBeLessThan(2);
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
    await screenshot(page, `login-${name}`);

    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    await screenshot(page, `forgot-${name}`);
    await page.getByRole('button', { name: 'Back' }).click();

    await signIn(page, 'partner@demo.test');
    await page.getByTestId('device-total').waitFor();
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await screenshot(page, `shell-${name}`);
  });
});
