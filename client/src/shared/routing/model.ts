import { createEffect, createEvent, createStore, sample, scopeBind } from 'effector';
import { yieldToBrowser } from '../lib';

// This module's units are built in a task of their own (yield-to-browser.ts says why).
await yieldToBrowser();

/**
 * The browser location as a store, so pages, dialogs and tests read one source. Navigation happens
 * through events; popstate (back/forward) is bound to the scope that started listening.
 */
export type AppLocation = { pathname: string; search: string };

export const ROUTES = {
  home: '/',
  maintenance: '/maintenance',
  maintenanceResult: '/maintenance-result',
  status: '/status',
  exclusiveManagement: '/exclusive-management',
} as const;

const readLocation = (): AppLocation =>
  typeof window === 'undefined'
    ? { pathname: '/', search: '' }
    : { pathname: window.location.pathname, search: window.location.search };

export const $location = createStore<AppLocation>({ pathname: '/', search: '' });
export const $pathname = $location.map((l) => l.pathname);
export const $query = $location.map((l) => new URLSearchParams(l.search));

/** Read the address bar (at start, and after back/forward). */
export const locationSynced = createEvent<AppLocation>();
/** Go somewhere inside the app without reloading; `replace` keeps the history length. */
export const navigated = createEvent<{ to: string; replace?: boolean }>();
/** Drop one query parameter (the showDeactivatedModal flag, a used reset token) without a history entry. */
export const queryParamRemoved = createEvent<string>();
export const routingStarted = createEvent();

export const readLocationFx = createEffect(readLocation);

export const pushHistoryFx = createEffect(({ to, replace }: { to: string; replace?: boolean }): AppLocation => {
  if (replace) window.history.replaceState(window.history.state, '', to);
  else window.history.pushState(null, '', to);
  return readLocation();
});

const listenPopStateFx = createEffect(() => {
  const synced = scopeBind(locationSynced, { safe: true });
  window.addEventListener('popstate', () => synced(readLocation()));
});

/** `location` with `name` dropped from its query, as a path for history. */
export function withoutQueryParam(location: AppLocation, name: string): string {
  const params = new URLSearchParams(location.search);
  params.delete(name);
  const search = params.toString();
  return `${location.pathname}${search ? `?${search}` : ''}`;
}

$location.on(locationSynced, (_, next) => next).on(pushHistoryFx.doneData, (_, next) => next);

sample({ clock: routingStarted, target: [readLocationFx, listenPopStateFx] });
sample({ clock: readLocationFx.doneData, target: locationSynced });
sample({ clock: navigated, target: pushHistoryFx });
sample({
  clock: queryParamRemoved,
  source: $location,
  filter: (location, name) => new URLSearchParams(location.search).has(name),
  fn: (location, name) => ({ to: withoutQueryParam(location, name), replace: true }),
  target: pushHistoryFx,
});
