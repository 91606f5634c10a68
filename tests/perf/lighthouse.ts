/**
 * Lighthouse 12 (performance category, its default mobile throttling) on Debian's Chromium, launched by
 * chrome-launcher (CHROME_PATH or /usr/bin/chromium; headless, no sandbox, software GL). For a signed-in
 * page the token is put in the `userToken` cookie through the DevTools protocol first and Lighthouse keeps
 * the browser's storage (disableStorageReset), so the page loads as a returning signed-in user's tab.
 * Used by npm run bench (tests/bench/run-all.ts); alone: npx tsx tests/perf/lighthouse.ts <url> [token]
 * LH_TASKS=1 prints each run's long tasks (bench, lighthouse-ab and alone).
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';

/**
 * `longestTask` is Lighthouse's longest task of the load, whoever ran it; `longestOwnTask` the longest of
 * those it attributes to the page's own origin (its scripts and the document). The rest are the browser's
 * own start (attributed to no URL, before the first paint: 150-270 ms under the 4x slowdown, the login
 * page's too) and Lighthouse's own evaluations in the page (`_lighthouse-eval.js`).
 */
export type LighthouseFigures = {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  scriptKb: number;
  longTasks: number;
  longestTask: number;
  longestOwnTask: number;
};

/**
 * Lighthouse now and then cannot read its own trace of the load (runtimeError NO_NAVSTART, about one run in
 * five here): it then answers with no figures and a score of null, which a table would show as 0.00. Such a
 * run is made again in a new browser, up to three times in all; after that it throws with Lighthouse's code.
 */
export async function lighthouseRun(url: string, token: string | null, attempts = 3): Promise<LighthouseFigures> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseOnce(url, token);
    } catch (error) {
      if (!(error instanceof LighthouseRuntimeError) || attempt >= attempts) throw error;
    }
  }
}

class LighthouseRuntimeError extends Error {}

async function lighthouseOnce(url: string, token: string | null): Promise<LighthouseFigures> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--enable-unsafe-swiftshader', '--disable-dev-shm-usage'],
  });
  try {
    if (token) {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
      await browser.contexts()[0]!.addCookies([{ name: 'userToken', value: token, url: new URL(url).origin }]);
      await browser.close();
    }
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      disableStorageReset: !!token,
    });
    const lhr = result!.lhr;
    if (lhr.runtimeError)
      throw new LighthouseRuntimeError(
        `Lighthouse could not measure ${url}: ${lhr.runtimeError.code} (${lhr.runtimeError.message})`,
      );
    const numeric = (id: string) => Number(lhr.audits[id]?.numericValue ?? NaN);
    const items =
      (lhr.audits['long-tasks']?.details as { items?: { duration: number; url?: string; startTime?: number }[] } | undefined)
        ?.items ?? [];
    // LH_TASKS=1: each long task as Lighthouse counts it (its simulated start and duration, its script).
    if (process.env.LH_TASKS)
      for (const t of [...items].sort((a, b) => (a.startTime ?? 0) - (b.startTime ?? 0)))
        console.log(`    long task at ${Math.round(t.startTime ?? 0)} ms: ${Math.round(t.duration)} ms ${t.url ?? ''}`);
    const tasks = items.map((t) => t.duration);
    const own = items.filter((t) => t.url?.startsWith(new URL(url).origin)).map((t) => t.duration);
    const scripts = (
      (lhr.audits['resource-summary']?.details as { items?: { resourceType: string; transferSize: number }[] } | undefined)
        ?.items ?? []
    ).find((i) => i.resourceType === 'script');
    return {
      score: lhr.categories.performance?.score ?? 0,
      fcp: numeric('first-contentful-paint'),
      lcp: numeric('largest-contentful-paint'),
      tbt: numeric('total-blocking-time'),
      scriptKb: (scripts?.transferSize ?? 0) / 1024,
      longTasks: tasks.length,
      longestTask: tasks.length ? Math.max(...tasks) : 0,
      longestOwnTask: own.length ? Math.max(...own) : 0,
    };
  } finally {
    await chrome.kill();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!) && process.argv[2]) {
  console.log(await lighthouseRun(process.argv[2], process.argv[3] ?? null));
}
