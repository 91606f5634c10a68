/**
 * The auth modal in a real browser (spec sections 2, 4, 5, 8): every path and message of sign in,
 * forgot password, sign up and reset password, the Account Deactivated dialog and its triggers, keyboard
 * access and an axe check. Needs client/dist (built when missing) and /usr/bin/chromium (or CHROMIUM_PATH).
 */
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../server/src/db/schema.ts';
import { mailText } from '../helpers/smtp.ts';
import {
  animationsSettled,
  axeOn,
  deactivatedDialog,
  DESKTOP,
  emailField,
  formMessage,
  passwordField,
  screenshot,
  signIn,
  signInTab,
  signInToMap,
  signUpTab,
  startE2E,
  TABLET,
  tokenCookie,
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

const openPage = (...args: Parameters<E2E['openPage']>) => e2e.openPage(...args);

/** serious and critical axe violations, as "rule: target" lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  // Dialogs and tabs animate: judge the settled screen a person sees, not a colour blend mid-animation.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  const { violations } = await axeOn(page).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

describe('sign in', () => {
  it('shows exactly "Incorrect email / password" for a wrong password', async () => {
    const page = await openPage();
    await signIn(page, 'client@demo.test', 'Wrong1234');
    await formMessage(page).waitFor();
    expect(await formMessage(page).textContent()).toBe('Incorrect email / password');
    expect(await tokenCookie(page)).toBeUndefined();
    expect(await signInTab(page).getAttribute('aria-selected')).toBe('true');
    // Editing clears it.
    await passwordField(page).press('Backspace');
    expect(await formMessage(page).count()).toBe(0);
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

  it('sends a session whose account is deactivated (403 on any call) to /?showDeactivatedModal=true', async () => {
    const page = await openPage();
    await signInToMap(page, 'client2@demo.test');
    // The map's page is left before the account changes: its socket re-checks the session on each subscribe,
    // and a notice of the end arriving while a reload was under way cleared the token after the reload had
    // asked for / (a clean-clone run then loaded / signed out, with no dialog). The page comes back with the
    // token, and its first calls answer 403.
    const mapUrl = page.url();
    await page.goto('about:blank');
    await e2e.portal.harness.database.db.update(users).set({ activated: false }).where(eq(users.email, 'client2@demo.test'));
    await page.goto(mapUrl);
    await deactivatedDialog(page).waitFor();
    expect(new URL(page.url()).searchParams.get('showDeactivatedModal')).toBe('true');
    expect(await tokenCookie(page)).toBeUndefined();
    await e2e.portal.harness.database.db.update(users).set({ activated: true }).where(eq(users.email, 'client2@demo.test'));
  });

  it('drops a stored token the server refuses (401) and shows the modal at /', async () => {
    const page = await openPage(DESKTOP, '/status', (context) =>
      context.addCookies([{ name: 'userToken', value: 'f'.repeat(40), url: e2e.portal.baseURL }]),
    );
    await signInTab(page).waitFor();
    expect(await tokenCookie(page)).toBeUndefined();
    expect(new URL(page.url()).pathname).toBe('/');
  });

  it('lights the Distributor indicator once typing has paused for 2 s', async () => {
    // The pause is timed on the page's own clock (page.clock, paused: it moves only when run), in a browser
    // context of its own (the fake clock also stops animation frames), not by sleeping a second under load.
    const IDLE_MS = 2_000; // ROLE_LOOKUP_IDLE_MS of features/sign-in
    const page = await openPage(DESKTOP, '/', async () => {});
    await emailField(page).waitFor();
    const start = Date.now();
    await page.clock.install({ time: start });
    await page.clock.pauseAt(start + 1_000);
    const lookups: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/api/v1/checkUser/')) lookups.push(decodeURIComponent(req.url().split('/checkUser/')[1] ?? ''));
    });
    const distributor = page.locator('[data-kind="distributor"]');
    const company = page.locator('[data-kind="company"]');
    await emailField(page).pressSequentially('distributor@demo.test');
    await page.clock.runFor(IDLE_MS - 100);
    expect(await distributor.getAttribute('data-active')).toBe('false');
    expect(lookups).toEqual([]);
    await page.clock.runFor(100);
    await expect.poll(() => distributor.getAttribute('data-active'), { timeout: 5000 }).toBe('true');
    expect(lookups).toEqual(['distributor@demo.test']);
    await emailField(page).fill('client@demo.test');
    expect(await distributor.getAttribute('data-active')).toBe('false');
    await page.clock.runFor(IDLE_MS);
    await expect.poll(() => company.getAttribute('data-active'), { timeout: 5000 }).toBe('true');
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

  it('reaches every control by keyboard with a visible focus ring; arrows and Enter switch tabs', async () => {
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
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    expect(await signUpTab(page).getAttribute('aria-selected')).toBe('true');
    await page.getByLabel('Name', { exact: true }).waitFor();
  });
});

describe('forgot password', () => {
  it('is sent for a known email, incorrect for an unknown one, cleared on edit, and Back keeps the email', async () => {
    const page = await openPage();
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    const send = page.getByRole('button', { name: 'Send Password to Email' });

    await emailField(page).fill('client@demo.test');
    await send.click();
    await page.getByText('Confirmation email has been Sent!', { exact: true }).waitFor();
    await expect.poll(() => e2e.portal.harness.smtp.received.some((m) => m.to.includes('client@demo.test'))).toBe(true);
    await emailField(page).press('End');
    await emailField(page).press('x');
    expect(await formMessage(page).count()).toBe(0);

    await emailField(page).fill('nobody@demo.test');
    await send.click();
    await page.getByText('Email Incorrect!', { exact: true }).waitFor();
    await emailField(page).press('Backspace');
    expect(await formMessage(page).count()).toBe(0);

    await page.getByRole('button', { name: 'Back' }).click();
    await passwordField(page).waitFor();
    expect(await emailField(page).inputValue()).toBe('nobody@demo.tes');
  });
});

describe('sign up', () => {
  const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

  async function openSignUp(viewport = DESKTOP) {
    const page = await openPage(viewport);
    await signUpTab(page).click();
    await field(page, 'Name').waitFor();
    return page;
  }

  async function fillSignUp(page: Page, email: string) {
    await field(page, 'Name').fill('Sam Signup');
    await field(page, 'Company').fill('Signup Supplies');
    await field(page, 'Email').fill(email);
    await field(page, 'Mobile Phone Number (optional)').fill('+1 504 555 0142');
    await field(page, 'Password').fill('Signup123');
  }

  it('offers Distributor only, with Required placeholders, ticks and a sliding highlight', async () => {
    const page = await openSignUp();
    expect(await signUpTab(page).getAttribute('aria-selected')).toBe('true');
    const company = page.getByRole('radio', { name: 'Company' });
    const distributor = page.getByRole('radio', { name: 'Distributor' });
    expect(await company.getAttribute('aria-disabled')).toBe('true');
    expect(await company.getAttribute('aria-checked')).toBe('false');
    expect(await distributor.getAttribute('aria-checked')).toBe('true');
    await company.click({ force: true });
    expect(await distributor.getAttribute('aria-checked')).toBe('true');

    for (const label of ['Name', 'Company', 'Email', 'Password'])
      expect(await field(page, label).getAttribute('placeholder')).toBe('Required');
    expect(await field(page, 'Mobile Phone Number (optional)').getAttribute('placeholder')).toBeNull();

    const emailTick = page.getByRole('button', { name: 'Email notifications' });
    const phoneTick = page.getByRole('button', { name: 'Phone notifications' });
    expect(await emailTick.getAttribute('aria-pressed')).toBe('false');
    await emailTick.click();
    expect(await emailTick.getAttribute('aria-pressed')).toBe('true');
    expect(await phoneTick.getAttribute('aria-pressed')).toBe('false');

    // The highlight sits under SIGN UP, in the right half of the tab list.
    const highlight = await page.locator('[role="tablist"] > span').evaluate((el) => getComputedStyle(el).transform);
    expect(highlight).not.toBe('none');
    const password = field(page, 'Password');
    await password.fill('Visible1');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await password.getAttribute('type')).toBe('text');

    await page.getByRole('button', { name: 'Back' }).click();
    expect(await signInTab(page).getAttribute('aria-selected')).toBe('true');
    await passwordField(page).waitFor();
  });

  it('turns the button green "Sign Up Success !" and sends the spec payload', async () => {
    const page = await openSignUp();
    const bodies: unknown[] = [];
    // The colour is the --color-success-strong / --color-danger-strong token (white text, 4.5:1 and up).
    page.on('request', (req) => {
      if (req.url().endsWith('/auth/users/') && req.method() === 'POST') bodies.push(req.postDataJSON());
    });
    await fillSignUp(page, 'Sam.Signup@Demo.TEST');
    await page.getByRole('button', { name: 'Phone notifications' }).click();
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    const button = page.locator('button[data-result="success"]');
    await button.waitFor();
    expect(await button.textContent()).toBe('Sign Up Success !');
    await expect.poll(() => button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(21, 128, 61)');
    expect(bodies).toEqual([
      {
        isEnableNotificationEmail: false,
        isEnableNotificationPhone: true,
        email: 'sam.signup@demo.test',
        username: 'Sam Signup',
        password: 'Signup123',
        role: 'distributor',
        company: 'Signup Supplies',
        phone: '+1 504 555 0142',
      },
    ]);
    const [created] = await e2e.portal.harness.database.db.select().from(users).where(eq(users.email, 'sam.signup@demo.test'));
    expect(created?.activated).toBe(false);

    // Editing any field clears the result.
    await field(page, 'Company').press('End');
    await field(page, 'Company').type('!');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).waitFor();
  });

  it('turns the button red "Sign Up Fail : user with this email already exists." for client@demo.test', async () => {
    const page = await openSignUp();
    await fillSignUp(page, 'client@demo.test');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    const button = page.locator('button[data-result="failure"]');
    await button.waitFor();
    expect(await button.textContent()).toBe('Sign Up Fail : user with this email already exists.');
    await expect.poll(() => button.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(180, 35, 24)');
    await page.getByRole('button', { name: 'Email notifications' }).click();
    expect(await page.locator('button[data-result="failure"]').count()).toBe(0);
  });
});

describe('reset password', () => {
  async function requestResetToken(email: string): Promise<string> {
    const before = e2e.portal.harness.smtp.received.length;
    const answer = await fetch(`${e2e.portal.baseURL}/api/v1/requestResetPassword/${encodeURIComponent(email)}`, {
      method: 'POST',
    });
    expect(answer.status).toBe(200);
    await expect.poll(() => e2e.portal.harness.smtp.received.slice(before).some((m) => m.to.includes(email))).toBe(true);
    const mail = e2e.portal.harness.smtp.received.slice(before).find((m) => m.to.includes(email))!;
    const token = /[?&]token=([A-Za-z0-9_\-.~%]+)/.exec(mailText(mail.raw))?.[1];
    expect(token).toBeTruthy();
    return decodeURIComponent(token!);
  }

  it('opens on the reset view from the mailed link, checks the policy and match, resets, and the new password signs in', async () => {
    const token = await requestResetToken('partner2@demo.test');
    const page = await openPage(DESKTOP, `/?token=${encodeURIComponent(token)}`);
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    expect(await page.getByRole('tab').count()).toBe(0);
    const fresh = page.getByLabel('New Password', { exact: true });
    const repeat = page.getByLabel('Repeat New Password', { exact: true });
    const submit = page.getByRole('button', { name: 'Reset Password', exact: true });
    await screenshot(page, 'reset-1280x800');

    await fresh.fill('short');
    await repeat.fill('short');
    await submit.click();
    await page
      .getByText('Password must be at least 8 characters and include uppercase, lowercase, and digit.', { exact: true })
      .waitFor();

    await fresh.fill('Renewed123');
    expect(await formMessage(page).count()).toBe(0);
    await repeat.fill('Renewed124');
    await submit.click();
    await page.getByText('Please make sure your passwords match.', { exact: true }).waitFor();

    const toggles = page.getByRole('button', { name: 'Show password' });
    expect(await toggles.count()).toBe(2);
    await toggles.nth(1).click();
    expect(await repeat.getAttribute('type')).toBe('text');

    await repeat.fill('Renewed123');
    await submit.click();
    const success = page.locator('button[data-result="success"]');
    await success.waitFor();
    expect(await success.textContent()).toBe('Password Reset Success !');
    await expect.poll(() => success.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(21, 128, 61)');
    // Settled: the spent token is out of the address bar, the button takes no more clicks, and a second
    // click adds nothing under the success (it used to add 'Something went wrong.').
    await expect.poll(() => new URL(page.url()).searchParams.has('token')).toBe(false);
    expect(await success.getAttribute('aria-disabled')).toBe('true');
    expect(await fresh.isDisabled()).toBe(true);
    expect(await repeat.isDisabled()).toBe(true);
    const posts: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && posts.push(new URL(r.url()).pathname));
    await success.click({ force: true });
    await page.keyboard.press('Enter');
    await expect.poll(() => success.textContent()).toBe('Password Reset Success !');
    expect(await page.getByText('Something went wrong.', { exact: true }).count()).toBe(0);
    expect(await formMessage(page).count()).toBe(0);
    expect(posts).toEqual([]);
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 1024, height: 768 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await screenshot(page, `reset-success-${viewport.width}`);
      expect(await seriousViolations(page)).toEqual([]);
    }
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: 'Cancel' }).click();
    await signInTab(page).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await signIn(page, 'partner2@demo.test', 'Renewed123');
    await page.locator('[data-testid="fleet-map"][data-pin-count]').waitFor({ timeout: 30_000 });
  });

  it('says Something went wrong. for a used token, and Cancel returns to sign in', async () => {
    const page = await openPage(DESKTOP, '/?token=not-a-real-token');
    await page.getByLabel('New Password', { exact: true }).fill('Renewed123');
    await page.getByLabel('Repeat New Password', { exact: true }).fill('Renewed123');
    await page.getByRole('button', { name: 'Reset Password', exact: true }).click();
    await page.getByText('Something went wrong.', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await signInTab(page).getAttribute('aria-selected')).toBe('true');
  });
});

describe('auth modal look and accessibility', () => {
  it('has no serious or critical axe violation in the sign-in, sign-up, forgot and reset views', async () => {
    const page = await openPage();
    await signInTab(page).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await signUpTab(page).click();
    await page.getByLabel('Name', { exact: true }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await signInTab(page).click();
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    const reset = await openPage(DESKTOP, '/?token=abc');
    await reset.getByLabel('New Password', { exact: true }).waitFor();
    expect(await seriousViolations(reset)).toEqual([]);
    const dialog = await openPage(DESKTOP, '/?showDeactivatedModal=true');
    await deactivatedDialog(dialog).waitFor();
    expect(await seriousViolations(dialog)).toEqual([]);
  });

  it.each([
    { name: '1280x800', viewport: DESKTOP },
    { name: '820x1180', viewport: TABLET },
  ])('renders the login modal and sign-up view inside the window at $name (tests/.artifacts)', async ({ name, viewport }) => {
    const page = await openPage(viewport);
    await signInTab(page).waitFor();
    const card = page.locator('section').filter({ has: signInTab(page) });
    const inside = async () => {
      const box = await card.boundingBox();
      expect(box).not.toBeNull();
      expect(Math.abs(box!.x + box!.width / 2 - viewport.width / 2)).toBeLessThan(2);
      expect(box!.y).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
    };
    await inside();
    await screenshot(page, `login-${name}`);
    await signUpTab(page).click();
    await page.getByLabel('Name', { exact: true }).waitFor();
    await animationsSettled(page);
    await inside();
    await screenshot(page, `sign-up-${name}`);
    await signInTab(page).click();
    await page.getByRole('button', { name: 'Forgot Password?' }).click();
    await page.getByRole('heading', { name: 'Reset Password' }).waitFor();
    await screenshot(page, `forgot-${name}`);
  });
});
