import { createEffect, createEvent, createStore, sample } from 'effector';
import { registerSW } from 'virtual:pwa-register';

/**
 * The field app's installability and updates (vite-plugin-pwa's service worker, scoped to /maintenance):
 * - maintenance.html carries the manifest link; the page adds it where it is missing (the dev server, or a
 *   build whose /maintenance is the portal's index.html: vite.config.ts);
 * - a new version, once downloaded, waits: the page says so, and the technician reloads when ready. The
 *   Reload button waits while a record form is open, so an update never interrupts a form.
 */
export const pwaStarted = createEvent();
export const updateFound = createEvent();
export const reloadClicked = createEvent();

let update: ((reload?: boolean) => Promise<void>) | null = null;

export const registerFx = createEffect(() => {
  if (!document.querySelector('link[rel="manifest"]')) {
    const link = document.createElement('link');
    link.rel = 'manifest';
    link.href = '/manifest.webmanifest';
    document.head.append(link);
  }
  if (!('serviceWorker' in navigator)) return false;
  update = registerSW({ immediate: true, onNeedRefresh: () => updateFound() });
  return true;
});
/** Activates the waiting version and reloads the page on it. */
export const applyUpdateFx = createEffect(async () => {
  await update?.(true);
});

/** A new version is downloaded and waits for the technician's Reload. */
export const $updateReady = createStore(false).on(updateFound, () => true);

sample({ clock: pwaStarted, target: registerFx });
