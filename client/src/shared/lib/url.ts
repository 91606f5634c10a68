/** Whether the current URL carries `?name=value`. */
export function hasQueryFlag(name: string, value = 'true'): boolean {
  return new URLSearchParams(window.location.search).get(name) === value;
}

/** Drops `name` from the query string without reloading or adding a history entry. */
export function removeQueryParam(name: string): void {
  const url = new URL(window.location.href);
  if (!url.searchParams.has(name)) return;
  url.searchParams.delete(name);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}
