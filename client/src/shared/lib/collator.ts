/**
 * Starts the page's default collator (the one `a.localeCompare(b)` uses, kept by V8 once made) at an idle
 * moment, so the first sort by name is not what pays for it. The dashboard's filter lists sort their Brand and
 * County options by name when they first open: that first localeCompare was 54 ms of the click that opens
 * the Total list under a 4x CPU slowdown (a Chrome trace of the open, 10,000 devices), where the list's own
 * budget is 300 ms from the click to its rows (tests/bench/list-open.ts). Made at idle it costs the same
 * once, in a task nobody waits on.
 */
export function warmCollatorWhenIdle(): void {
  const start = () => void 'a'.localeCompare('b');
  const idle = (globalThis as { requestIdleCallback?: (run: () => void, options: { timeout: number }) => number })
    .requestIdleCallback;
  if (typeof idle === 'function') idle(start, { timeout: 5_000 });
  else setTimeout(start, 1_000);
}
