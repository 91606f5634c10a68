/**
 * How many frames the offline map draws from a signed-in page load to its settled picture, and what a
 * load costs Chromium's processes, in the browser the end-to-end tests use (Debian's Chromium, software
 * WebGL, 1280x800, a kept tab as tests/e2e/browser.ts keeps it; V8 limited to its baseline compiler as there,
 * TEST_BROWSER_JIT=full for its whole pipeline). Each frame on a software rasteriser is
 * drawn by the GPU process's CPU and read back for the compositor, so the frame count is the figure
 * (issue 16; the loading frames are spaced by frameGate in client/src/widgets/map/lib/render-quality.ts).
 * Prints each load's frames (ms after navigation, canvas size) and the CPU of the browser's processes
 * over the loads after the first, from /proc (Linux), then a RESULT line (no budget: a figure to compare).
 *
 *   npm run build -w client && npx tsx tests/perf/map-frames.ts [loads]
 */
import fs from 'node:fs';
import { startE2E } from '../e2e/browser.ts';

const LOADS = Number(process.argv[2] ?? 5);
const TICKS = 100; // USER_HZ on Linux

/** CPU seconds so far of each Chromium process kind (exited children of a process are not counted). */
function chromiumCpu(): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('chromium')) continue;
      const kind = /--type=([a-z-]+)/.exec(cmd)?.[1] ?? 'browser';
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(`${pid} ${kind}`, (Number(fields[11]) + Number(fields[12])) / TICKS);
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const e2e = await startE2E();
const frameCounts: number[] = [];
const cpu = new Map<string, number>();
try {
  for (let i = 0; i < LOADS; i++) {
    const page = await e2e.openSignedIn('distributor@demo.test', '/api/parked-test-tab');
    // The map is handed to the page's script only when the flag is set before the app starts (offline-map's exposeForTests).
    await page.addInitScript(() => {
      const w = window as unknown as {
        __fleetMapHook: boolean;
        __frames: number[][];
        __fleetMap?: { on(event: string, run: () => void): void; getCanvas(): HTMLCanvasElement };
      };
      w.__fleetMapHook = true;
      w.__frames = [];
      const wait = setInterval(() => {
        const map = w.__fleetMap;
        if (!map) return;
        clearInterval(wait);
        map.on('render', () => w.__frames.push([Math.round(performance.now()), map.getCanvas().width, map.getCanvas().height]));
      }, 5);
    });
    const before = chromiumCpu();
    await page.goto('/');
    await page.locator('[data-testid="fleet-map"][data-pin-count]').waitFor({ timeout: 60_000 });
    await page.waitForTimeout(3_000);
    const after = chromiumCpu();
    const frames = (await page.evaluate('window.__frames')) as number[][];
    frameCounts.push(frames.length);
    console.log(`load ${i + 1}: ${frames.length} frames: ${frames.map(([at, w, h]) => `${at} ms ${w}x${h}`).join(', ')}`);
    if (i > 0) {
      for (const [key, seconds] of after) {
        const kind = key.split(' ')[1]!;
        cpu.set(kind, (cpu.get(kind) ?? 0) + seconds - (before.get(key) ?? 0));
      }
    }
    await e2e.closeContexts();
  }
} finally {
  await e2e.close();
}
const mean = (n: number) => (n / Math.max(1, LOADS - 1)).toFixed(2);
console.log(
  `Chromium CPU a load (loads 2-${LOADS}, a new tab each here, as the init script needs): ${[...cpu].map(([kind, s]) => `${kind} ${mean(s)} s`).join(', ')}`,
);
console.log(
  `RESULT offline map frames to the settled map: ${frameCounts.join(', ')} (median ${[...frameCounts].sort((a, b) => a - b)[Math.floor(frameCounts.length / 2)]})`,
);
