/**
 * Promise: security headers on pages and API, with a Content-Security-Policy the app and the offline map
 * work under. Chromium loads the sign-in page, signs in, draws the map with its pins and opens a pin,
 * and the page reports no CSP violation (securitypolicyviolation events and console messages); an inline
 * script planted in the page is refused; the API docs page's own script runs (allowed by its hash).
 */
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fleetMap, mapIdle, screenshot, signInToMap, startE2E, type E2E } from './browser.ts';

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

/** Collects CSP violations seen by the page (from its first script on) and by the console. */
async function watchViolations(page: Page) {
  const fromConsole: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) fromConsole.push(m.text());
  });
  await page.addInitScript(() => {
    (window as unknown as { __csp: string[] }).__csp = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __csp: string[] }).__csp.push(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      ),
    );
  });
  return {
    async all() {
      const fromPage = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
      return [...fromConsole, ...fromPage];
    },
  };
}

describe('security headers in the browser', () => {
  it('the app and the offline map run under the CSP with no violation', async () => {
    const page = await e2e.openPage(undefined, 'about:blank');
    const violations = await watchViolations(page);
    const answer = await page.goto('/');
    const headers = answer!.headers();
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['x-frame-options']).toBe('DENY');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');

    await signInToMap(page, 'distributor@demo.test');
    expect(Number(await fleetMap(page).getAttribute('data-pin-count'))).toBeGreaterThan(0);
    // The map has drawn (canvas present, MapLibre's blob: worker allowed) and the realtime socket is up.
    await expect.poll(() => page.locator('canvas').count()).toBeGreaterThan(0);
    await mapIdle(page);
    await screenshot(page, 'security-map-under-csp');
    expect(await violations.all()).toEqual([]);

    // A form that validates with the shared zod schemas: zod loads with its chunk (the first page load has
    // none) and must build and run them without eval (client/src/shared/lib/zod-jitless.ts).
    await page.getByRole('tab', { name: 'BATCH LIST' }).click();
    await page.getByRole('button', { name: 'Add batch' }).click();
    const add = page.getByRole('dialog', { name: 'ADD NEW BATCH' });
    await add.getByRole('button', { name: 'SAVE' }).click();
    await expect.poll(() => add.locator('[data-field-error]').filter({ hasText: 'Required' }).count()).toBe(5);
    await add.getByLabel('Batch Volume (fl.oz.)').fill('-3');
    await add.getByRole('button', { name: 'SAVE' }).click();
    await expect.poll(() => add.locator('[data-field-error]').filter({ hasText: 'Required' }).count()).toBe(4);
    expect(await violations.all()).toEqual([]);
    await page.keyboard.press('Escape');

    // A script injected into the page (what a stored XSS would be) is refused.
    const ran = await page.evaluate(async () => {
      (window as unknown as { __pwned?: boolean }).__pwned = false;
      const s = document.createElement('script');
      s.textContent = 'window.__pwned = true';
      // An inline script runs as it is appended, when the policy lets it: no wait needed.
      document.body.append(s);
      return (window as unknown as { __pwned?: boolean }).__pwned;
    });
    expect(ran).toBe(false);
    expect((await violations.all()).some((v) => /script-src/.test(v))).toBe(true);
  });

  it('the API answers carry the headers too, and the docs page runs its own script only', async () => {
    const page = await e2e.openPage(undefined, 'about:blank');
    const violations = await watchViolations(page);
    const api = await page.request.get('/api/v1/device');
    expect(api.status()).toBe(401);
    expect(api.headers()['x-content-type-options']).toBe('nosniff');
    expect(api.headers()['content-security-policy']).toContain("default-src 'self'");
    await page.goto('/api/docs');
    await expect.poll(() => page.locator('details').count()).toBeGreaterThan(20);
    expect(await violations.all()).toEqual([]);
  });
});
