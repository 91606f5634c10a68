export { deleteCookie, readCookie, writeSessionCookie } from './cookie';
export { useDebouncedValue } from './use-debounced-value';
export { hasQueryFlag, removeQueryParam } from './url';
export { normalizeEmail } from './email';
