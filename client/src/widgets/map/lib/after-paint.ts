/**
 * Resolves once the browser has painted what is on screen and has a moment to spare (an idle callback,
 * at most `timeoutMs` later; a frame and a task where there is no requestIdleCallback). The map starts
 * here, so the page's panels are drawn before MapLibre's start-up takes the main thread.
 */
export function afterFirstPaint(timeoutMs = 1000): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: timeoutMs });
    else requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}
