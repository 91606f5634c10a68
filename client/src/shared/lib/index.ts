export { $now, clockStarted, clockStopped } from './clock';
export { deleteCookie, readCookie, writeSessionCookie } from './cookie';
export { createDebounce } from './debounce';
export { normalizeEmail } from './email';
export { createResultPopup, createSeqTimerFx, type PopupResult } from './result-popup';
export { pageZone, siteTime } from './site-time';
export { eachJsonLine } from './json-lines';
export { yieldToBrowser, yieldWhenDue } from './yield-to-browser';
export { warmCollatorWhenIdle } from './collator';
// Counts and volumes are written one way on every screen and in every file: the shared package's helper.
export { formatNumber } from '@fleet/shared';
