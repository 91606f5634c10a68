/**
 * The field app's start (issue 44): time from opening /maintenance to the crew's plan of the day on screen,
 * under Lighthouse's mobile throttling applied through CDP (Slow 4G as Lighthouse's devtools throttling
 * applies it: 562.5 ms latency, 1.47 Mbit/s down, 675 kbit/s up; CPU slowed 4x), the median of `--runs`:
 *   cold     a phone that never opened the app (a new profile: no service worker, no HTTP cache, no Dexie);
 *   offline  the same phone the next time, without any network: the service worker's shell, the plan and
 *            its devices from IndexedDB. Target < 2 s.
 * The time is the page's own clock (performance.now() from its navigation) when the plan's section enters
 * the DOM, read by a MutationObserver added before the page's scripts. The crew is remembered on the phone.
 * Run: npm run build -w client && npx tsx tests/bench/field-app.bench.ts [--runs 5]
 * Prints `RESULT field_cold_ms=... field_offline_ms=... runs=...` (tests/bench/run-all.ts reads it).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { chromium, type BrowserContext } from 'playwright-core';
import { devices } from '../../server/src/db/schema.ts';
import { CHROMIUM, CHROMIUM_ARGS, PASSWORD } from '../e2e/browser.ts';
import { startPortal } from '../e2e/server.ts';

const argv = process.argv.slice(2);
const RUNS = argv.includes('--runs') ? Math.max(1, Number(argv[argv.indexOf('--runs') + 1]) || 5) : 5;
const PHONE = { width: 390, height: 844 };
/** Lighthouse's mobile network as its devtools throttling applies it (lighthouse-core/config/constants.js). */
const SLOW_4G = { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 };
const CREW = 'Bench van';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

const portal = await startPortal();
const token = portal.harness.config.maintenanceToken;
const profiles: string[] = [];
try {
  // A published plan of today (the phone's day: this machine's zone) for one crew, over devices made due.
  const login = await fetch(`${portal.baseURL}/auth/token/login/`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'distributor@demo.test', password: PASSWORD }),
  });
  const auth = {
    Authorization: `Token ${((await login.json()) as { auth_token: string }).auth_token}`,
    'Content-Type': 'application/json',
  };
  const list = (await (
    await fetch(`${portal.baseURL}/api/v1/maintenanceDevices`, { headers: { Authorization: `Token ${token}` } })
  ).json()) as {
    serial: string;
  }[];
  await portal.harness.database.db
    .update(devices)
    .set({ volumeRemain: 0 })
    .where(
      inArray(
        devices.serial,
        list.slice(0, 6).map((d) => d.serial),
      ),
    );
  const crew = (await (
    await fetch(`${portal.baseURL}/api/v1/crews`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        name: CREW,
        email: 'bench.van@crew.test',
        phone: '+1 504 555 0101',
        depot: { address: '100 Depot Rd, New Orleans, LA', lat: 29.98, lng: -90.1 },
        startTime: '00:00',
        endTime: '23:59',
        capacityLitres: 200,
        capacityBatteries: 20,
      }),
    })
  ).json()) as { id: number };
  const d = new Date();
  const date = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  const plan = (await (
    await fetch(`${portal.baseURL}/api/v1/servicePlans`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ date, crewIds: [crew.id] }),
    })
  ).json()) as { id: number; crews: { crew: { id: number }; stops: unknown[] }[] };
  await fetch(`${portal.baseURL}/api/v1/servicePlans/${plan.id}/publish`, { method: 'POST', headers: auth });
  const stops = plan.crews[0]?.stops.length ?? 0;
  if (!stops) throw new Error('the bench plan has no stops');

  /** A phone: a profile of its own, the crew remembered, the plan's appearance timed by the page itself. */
  const phone = async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'field-bench-'));
    profiles.push(dir);
    const context = await chromium.launchPersistentContext(dir, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: PHONE,
      baseURL: portal.baseURL,
    });
    // A string, not a function: tsx names inner functions with a helper the page does not have.
    await context.addInitScript(`
      localStorage.setItem('fleet.fieldCrew', ${JSON.stringify(JSON.stringify({ id: String(crew.id), name: CREW }))});
      new MutationObserver((_, observer) => {
        if (!document.querySelector('[data-testid="day-plan"]')) return;
        window.planShownAt = performance.now();
        observer.disconnect();
      }).observe(document, { childList: true, subtree: true });
    `);
    return context;
  };
  /** One start: a new tab, throttled, opened on the technician's link; the page's time to the plan. */
  const start = async (context: BrowserContext, offline: boolean) => {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', offline ? { ...SLOW_4G, offline: true } : SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(`/maintenance#token=${token}`, { waitUntil: 'commit' });
    await page
      .waitForFunction(() => (window as unknown as { planShownAt?: number }).planShownAt !== undefined, null, { timeout: 60_000 })
      .catch(async (e: unknown) => {
        await page.screenshot({ path: path.join(os.tmpdir(), 'field-bench-failed.png') });
        console.log(
          await page.evaluate(() => [
            typeof (window as unknown as { planShownAt?: number }).planShownAt,
            Boolean(document.querySelector('[data-testid="day-plan"]')),
            localStorage.getItem('fleet.fieldCrew'),
          ]),
        );
        throw e;
      });
    const ms = await page.evaluate(() => (window as unknown as { planShownAt: number }).planShownAt);
    if (process.env.FIELD_BENCH_DEBUG)
      console.log(
        await page.evaluate(() =>
          performance
            .getEntries()
            .filter((e) => e.entryType === 'resource' || e.entryType === 'navigation' || e.entryType === 'paint')
            .map(
              (e) =>
                `${e.entryType} ${e.name.replace(location.origin, '').slice(0, 60)} ${e.startTime.toFixed(0)}-${(e.startTime + e.duration).toFixed(0)}`,
            )
            .join('\n'),
        ),
      );
    return { page, ms };
  };

  const cold: number[] = [];
  const offline: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const context = await phone();
    try {
      const first = await start(context, false);
      cold.push(first.ms);
      // The service worker is active once its precache (the shell) is stored: it serves the next start. The
      // plan's devices (levels) are in IndexedDB once their pump tables show.
      await first.page.evaluate(async () => void (await navigator.serviceWorker.ready));
      await first.page.getByTestId('plan-device').first().getByTestId('pump-table').first().waitFor({ timeout: 60_000 });
      await first.page.close();
      await context.setOffline(true);
      const again = await start(context, true);
      offline.push(again.ms);
      console.log(`run ${run + 1}: cold ${first.ms.toFixed(0)} ms, offline ${again.ms.toFixed(0)} ms`);
    } finally {
      await context.close();
    }
  }
  console.log(`plan of ${stops} stops; ${RUNS} runs, Slow 4G + 4x CPU`);
  console.log(`RESULT field_cold_ms=${median(cold).toFixed(0)} field_offline_ms=${median(offline).toFixed(0)} runs=${RUNS}`);
} finally {
  await portal.close();
  for (const dir of profiles) fs.rmSync(dir, { recursive: true, force: true });
}
