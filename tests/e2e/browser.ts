/**
 * What the end-to-end files share: the portal (built client served by the real app on PGlite with a
 * local SMTP server) and Debian's Chromium driven by playwright-core.
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect } from 'vitest';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { TOKEN_COOKIE } from '../../client/src/shared/api/token.ts';
import { CLIENT_DIST, REPO_ROOT, startPortal, type Portal } from './server.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.join(REPO_ROOT, 'tests', '.artifacts');
export const PASSWORD = 'Demo1234';
export const DESKTOP = { width: 1280, height: 800 };
export const TABLET = { width: 820, height: 1180 };
/**
 * The features playwright-core turns off (its own `--disable-features` list, copied so that the list below
 * holds them whether Chromium merges the two switches or keeps the last), and the omnibox popup's WebUI,
 * which Chromium 156 preloads in a renderer of its own for every browser context although a headless page
 * has no address bar (about 7 % of Chromium's CPU in tests/e2e/map.test.ts).
 */
const DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'WebUIOmniboxPopup',
  'WebUIOmniboxAimPopup',
];
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];

/**
 * The browser tests' Chromium: CHROMIUM_ARGS with V8 limited to its baseline compiler (Sparkplug; no Maglev
 * or TurboFan). Every page load is a new JavaScript world, so V8 optimised the app and MapLibre anew on each
 * of the suite's 140-odd loads: in a kept tab, Maglev and TurboFan on background threads were 1.0-1.3 s of a
 * signed-in map load's 3.5-4.1 s of Chromium CPU on this 2-core host, for code that runs for a few seconds.
 * Without them a load costs 2.6-2.9 s and the pins appear no later (tests/.scratch measurements, seven
 * loads each way, 2026-11-26). What the page does is the same; only how fast V8's code runs differs.
 * TEST_BROWSER_JIT=full gives the tests V8's full pipeline. Lighthouse and the other scripts in tests/perf
 * launch with CHROMIUM_ARGS, the full pipeline users have; map-frames, which measures this test browser, uses these.
 */
export const TEST_BROWSER_ARGS =
  process.env.TEST_BROWSER_JIT === 'full' ? CHROMIUM_ARGS : [...CHROMIUM_ARGS, '--js-flags=--max-opt=1'];

export type E2E = {
  portal: Portal;
  browser: Browser;
  openPage(
    viewport?: { width: number; height: number },
    url?: string,
    setup?: (context: BrowserContext) => Promise<void>,
  ): Promise<Page>;
  /**
   * A returning user: a page whose browser already holds `email`'s session cookie (the one the portal's
   * sign-in writes; the token from the same login call), opened at `url`. One page load, for tests about
   * what a deep link shows rather than about signing in (auth and map test that). `options` are the
   * browser context's (a viewport, a time zone).
   */
  openSignedIn(email: string, url: string, options?: BrowserContextOptions): Promise<Page>;
  /** After each test: closes its pages and the contexts made for it (see `open` below for what is kept). */
  closeContexts(): Promise<void>;
  /**
   * Before a file's push server closes: the browser (kept contexts included) and every HTTP connection to
   * the portal end. socket.io's close waits for the HTTP server it is attached to, and with it for every
   * connection still open there (a kept context's sockets; CI once waited out the 180 s hook timeout).
   */
  closeClients(): Promise<void>;
  close(): Promise<void>;
};

export async function startE2E(): Promise<E2E> {
  if (!fs.existsSync(path.join(CLIENT_DIST, 'index.html'))) {
    execSync('npm run build -w client', { cwd: REPO_ROOT, stdio: 'inherit' });
  }
  if (!fs.existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM} (apt-get install -y chromium, or set CHROMIUM_PATH)`);
  const [portal, browser] = await Promise.all([
    startPortal(),
    chromium.launch({ executablePath: CHROMIUM, headless: true, args: TEST_BROWSER_ARGS }),
  ]);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const contexts: BrowserContext[] = [];
  /**
   * Browser contexts kept from one test to the next, one per kind of opening (the same context options,
   * and the same user for a returning one). A new context starts with an empty HTTP cache, so its first
   * page downloads and compiles the app and MapLibre again and its map worker parses the basemap again:
   * 7-8 s of CPU to the pins on a slow host, against 4-5 s in a context that has loaded the page before.
   * What a test leaves behind goes at its end or at the next opening: its other pages close, cookies are
   * cleared, and a returning user gets a fresh session cookie. The HTTP cache stays (hashed, immutable
   * assets; the API is no-store), as it would for a person coming back to the portal. A test that prepares
   * its context (`setup`: cookies, routes) gets a new one of its own, closed after it.
   *
   * Each kept context also keeps its tab (see `park` and `reuse`): the next test's page is that tab
   * navigated anew, not a new tab. A new tab starts a renderer process, whose V8 compiles the app and
   * MapLibre again; the same tab's renderer keeps its compiled code. A signed-in map load took 4.9 s of
   * CPU that way against 7.1 s in a new tab (tests/.scratch measurements on this host, nine loads each).
   */
  const kept = new Map<string, BrowserContext>();
  /** The tab each kept context keeps between tests. */
  const tabs = new Map<BrowserContext, Page>();
  /** Tabs a test changed in ways a navigation does not undo (init scripts, exposed functions, a CDP session): never reused. */
  const dirty = new WeakSet<Page>();
  /**
   * After a test: the test's listeners and routes go, and the tab leaves the portal's app for a small
   * same-origin document (an API 404), so nothing of the test's page (sockets, timers, polls) runs on into
   * the next test while the tab's renderer, kept for the portal's site, stays; then its sessionStorage is
   * cleared (a closed tab would have lost it).
   */
  const PARKED = '/api/parked-test-tab';
  async function park(tab: Page) {
    await tab.removeAllListeners(undefined, { behavior: 'ignoreErrors' });
    await tab.unrouteAll({ behavior: 'ignoreErrors' });
    await tab.goto(`${portal.baseURL}${PARKED}`);
    await tab.evaluate(() => sessionStorage.clear());
  }
  /** Each kept tab's viewport when it opened (its context's), to return to. */
  const viewports = new WeakMap<Page, { width: number; height: number } | null>();
  /** Before a test: parked if it is not yet (a second opening within a test), and back to its first viewport with no emulated media. */
  async function reuse(tab: Page) {
    if (tab.url() !== `${portal.baseURL}${PARKED}`) await park(tab);
    await tab.emulateMedia({ media: null, colorScheme: null, reducedMotion: null, forcedColors: null });
    const [size, first] = [tab.viewportSize(), viewports.get(tab)];
    if (first && (size?.width !== first.width || size?.height !== first.height)) await tab.setViewportSize(first);
  }
  function track(page: Page) {
    viewports.set(page, page.viewportSize());
    for (const method of ['addInitScript', 'exposeFunction', 'exposeBinding'] as const) {
      const original = page[method].bind(page) as (...args: unknown[]) => Promise<unknown>;
      (page as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        dirty.add(page);
        return original(...args);
      };
    }
    return page;
  }
  async function open(
    options: BrowserContextOptions,
    url: string,
    setup?: (context: BrowserContext) => Promise<void>,
    keep?: string,
  ) {
    let context = keep === undefined ? undefined : kept.get(keep);
    let tab: Page | undefined;
    if (context) {
      tab = tabs.get(context);
      if (tab && (tab.isClosed() || dirty.has(tab))) tab = undefined;
      await Promise.all(
        context
          .pages()
          .filter((page) => page !== tab)
          .map((page) => page.close()),
      );
      await context.clearCookies();
    } else {
      context = await browser.newContext({ viewport: DESKTOP, ...options, baseURL: portal.baseURL });
      if (keep === undefined) contexts.push(context);
      else {
        kept.set(keep, context);
        const newCDPSession = context.newCDPSession.bind(context);
        context.newCDPSession = (page) => {
          if (page instanceof Object && 'goto' in page) dirty.add(page as Page);
          return newCDPSession(page);
        };
      }
    }
    await setup?.(context);
    if (tab) await reuse(tab);
    const page = tab ?? track(await context.newPage());
    if (keep !== undefined) tabs.set(context, page);
    await page.goto(url);
    return page;
  }
  const keyOf = (user: string, options: BrowserContextOptions) => JSON.stringify([user, options]);
  async function closeClients() {
    await Promise.all([...kept.values()].map((context) => context.close()));
    kept.clear();
    await browser?.close();
    portal?.server.closeAllConnections();
  }
  return {
    portal,
    browser,
    openPage: (viewport = DESKTOP, url = '/', setup) =>
      open({ viewport }, url, setup, setup ? undefined : keyOf('', { viewport })),
    async openSignedIn(email, url, options = {}) {
      const answer = await fetch(`${portal.baseURL}/auth/token/login/`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      const { auth_token: token } = (await answer.json()) as { auth_token?: string };
      if (!token) throw new Error(`login of ${email} answered ${answer.status}`);
      return open(
        options,
        url,
        (context) => context.addCookies([{ name: TOKEN_COOKIE, value: token, url: portal.baseURL, sameSite: 'Lax' }]),
        keyOf(email, options),
      );
    },
    async closeContexts() {
      await Promise.all([
        ...contexts.splice(0).map((context) => context.close()),
        ...[...kept.values()].flatMap((context) => {
          const tab = tabs.get(context);
          const keepTab = tab && !tab.isClosed() && !dirty.has(tab);
          return [
            ...context
              .pages()
              .filter((page) => !keepTab || page !== tab)
              .map((page) => page.close()),
            // A tab that cannot be parked (a test left it hung) is closed like the others.
            ...(keepTab ? [park(tab).catch(() => tab.close())] : []),
          ];
        }),
      ]);
    },
    closeClients,
    async close() {
      await closeClients();
      await portal?.close();
    },
  };
}

export const emailField = (page: Page) => page.getByLabel('Email', { exact: true });
export const passwordField = (page: Page) => page.getByLabel('Password', { exact: true });
export const signInTab = (page: Page) => page.getByRole('tab', { name: 'SIGN IN' });
export const signUpTab = (page: Page) => page.getByRole('tab', { name: 'SIGN UP' });
export const deactivatedDialog = (page: Page) => page.getByRole('dialog', { name: 'Account Deactivated' });
export const formMessage = (page: Page) => page.locator('[data-tone]');
export const fleetMap = (page: Page) => page.getByTestId('fleet-map');

/** Fills the sign-in form and submits it with the Enter key. */
export async function signIn(page: Page, email: string, password = PASSWORD) {
  await emailField(page).fill(email);
  await passwordField(page).fill(password);
  await passwordField(page).press('Enter');
}

/** Signs in and waits until the map has been handed its pins. */
export async function signInToMap(page: Page, email: string) {
  await signIn(page, email);
  await page.locator('[data-testid="fleet-map"][data-pin-count]').waitFor({ timeout: 30_000 });
}

export async function tokenCookie(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === 'userToken');
}

/** The map's data attributes and what it draws right now (its pins layer's on-demand readout). */
export async function mapData(page: Page): Promise<Record<string, string>> {
  return fleetMap(page).evaluate((el) => {
    const rendered = (el as HTMLElement & { readRendered?: () => Record<string, string> }).readRendered?.() ?? {};
    return { ...(el as HTMLElement).dataset, ...rendered } as Record<string, string>;
  });
}

/**
 * Records the page's reads of the whole device list (GET /api/v1/device, 117 MB at 100,000 devices: issue 46)
 * from now on; a view that must never read it expects none.
 */
export function recordWholeListReads(page: Page): string[] {
  const reads: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/v1/device' && request.method() === 'GET') reads.push(url.pathname + url.search);
  });
  return reads;
}

export async function screenshot(page: Page, name: string) {
  // Park the pointer and focus away from controls so hover and focus styles do not show.
  await page.mouse.move(0, 0);
  await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
}

/**
 * Dismisses a result popup that may close itself (spec section 4: 1 to 2 s after it opens): OK while it is
 * still open, and either way it must be gone. On a loaded machine the popup can close between being seen
 * and the click landing, which a bare click reports as a failure.
 */
export async function dismissPopup(popup: Locator) {
  await popup
    .getByRole('button', { name: 'OK' })
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  await popup.waitFor({ state: 'hidden', timeout: 10_000 });
}

/** Waits for every running animation (a dialog's entrance, a button's transition) to finish. */
/**
 * Two of the page's animation frames: what a click or key started (a React commit, a dialog opening) has
 * rendered by then. A check that something did NOT happen waits for this, not for a guessed sleep.
 */
export async function framesRendered(page: Page) {
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/**
 * The map has finished moving and drawn what it shows (MapLibre's 'idle', data-idle on the map), then two
 * frames: for a screenshot or a check after a zoom, instead of a guessed sleep.
 */
export async function mapIdle(page: Page, timeout = 20_000) {
  await page.locator('[data-testid="fleet-map"][data-idle="true"]').waitFor({ timeout });
  await framesRendered(page);
}

export async function animationsSettled(page: Page) {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
}

/**
 * axe-core (its default rules) for `page`, run in the page itself. @axe-core/playwright's default mode runs
 * axe in each frame and then opens a blank page (a renderer process of its own) to merge the frames'
 * results, which is for cross-origin iframes; the portal has none (the offline map is a canvas, and Google
 * Maps cannot load here), so the legacy mode checks the same document with the same rules, in half the
 * time and without the extra page (`tests/e2e/*.test.ts` call it about fifty times).
 */
export const axeOn = (page: Page) => new AxeBuilder({ page }).setLegacyMode();

/**
 * axe-core with its default rules on `selector`, after the animations settle (a dialog still fading in
 * has half-transparent text, which axe reads as a contrast failure): the serious and critical findings
 * as 'rule: target' strings, so a failing expectation names them.
 */
export async function seriousAxe(page: Page, selector = 'body'): Promise<string[]> {
  await animationsSettled(page);
  const { violations } = await axeOn(page).include(selector).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`));
}

/** One value a recorded attribute took: when (the page's performance.now), its dialog's text and its alert. */
export type RecordedStep = { value: string; at: number; text: string; alert: string | null };
/**
 * Starts recording, in the page, each value that `attribute` of the first element matching `selector` takes
 * ('closed' while there is none; the first step is the current one unless closed), with the time, the text
 * of its <dialog> (or its own) and its alert. A step that lasts a second (a notice that closes itself) can
 * pass between two checks from a test on a loaded machine; the page's own record cannot miss it. One
 * recording per page: a new call starts it again.
 */
export async function recordSteps(page: Page, selector: string, attribute: string) {
  // A string: the test transform would wrap named inner functions in a helper the page lacks.
  await page.evaluate(`(() => {
    const w = window;
    w.__stepObserver?.disconnect();
    w.__steps = [];
    const record = () => {
      const d = document.querySelector(${JSON.stringify(selector)});
      const value = d ? d.getAttribute(${JSON.stringify(attribute)}) : 'closed';
      const last = w.__steps[w.__steps.length - 1];
      if ((last ? last.value : 'closed') === value) return;
      w.__steps.push({ value, at: performance.now(), text: d ? (d.closest('dialog') ?? d).textContent : '', alert: d ? (d.querySelector('[role=alert]')?.textContent ?? null) : null });
    };
    record();
    w.__stepObserver = new MutationObserver(record);
    w.__stepObserver.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: [${JSON.stringify(attribute)}] });
  })()`);
}
/** The steps recorded since recordSteps once their values, joined by spaces, match `ending` (for example /sent closed$/). */
export async function stepsUntil(page: Page, ending: RegExp, timeout = 10_000): Promise<RecordedStep[]> {
  const steps = () => page.evaluate('window.__steps') as Promise<RecordedStep[]>;
  await expect.poll(async () => (await steps()).map((s) => s.value).join(' '), { timeout }).toMatch(ending);
  return steps();
}

/**
 * Records in the page the text of every result popup while it is open (a MutationObserver: no frame or
 * poll needed), keyed by its title, and how many times a popup of each title has opened. The popup closes
 * itself after 1-2 s, which a loaded test machine can spend between two Playwright calls; animation-frame
 * polling (Playwright's waitFor) missed result popups in runs of the browser files on a slow host and on a
 * loaded fast one. Call it once the page has loaded, before the action.
 */
export async function recordResults(page: Page) {
  // A string: the test transform would wrap named inner functions in a helper the page lacks.
  await page.evaluate(`(() => {
    const w = window;
    w.__resultObserver?.disconnect();
    w.__results = w.__results ?? {};
    w.__resultOpenings = w.__resultOpenings ?? {};
    w.__resultsOpen = w.__resultsOpen ?? new Set();
    const record = () => {
      const open = new Set();
      for (const d of document.querySelectorAll('dialog[open]')) {
        const title = d.querySelector('h2')?.textContent;
        if (!title) continue;
        open.add(title);
        w.__results[title] = d.textContent;
        if (!w.__resultsOpen.has(title)) w.__resultOpenings[title] = (w.__resultOpenings[title] ?? 0) + 1;
      }
      w.__resultsOpen = open;
    };
    record();
    w.__resultObserver = new MutationObserver(record);
    w.__resultObserver.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['open'] });
  })()`);
}

/**
 * The text of the result popup titled `title` (recorded by recordResults), once a popup of that title has
 * opened `nth` times on the page (a test's second EMAIL ADDED: 2).
 */
export async function resultText(page: Page, title: string, nth = 1): Promise<string> {
  type Recorded = { __results: Record<string, string>; __resultOpenings: Record<string, number> };
  const opened = () => page.evaluate((t) => (window as unknown as Recorded).__resultOpenings[t] ?? 0, title);
  await expect.poll(opened, { timeout: 15_000 }).toBeGreaterThanOrEqual(nth);
  return page.evaluate((t) => (window as unknown as Recorded).__results[t]!, title);
}
