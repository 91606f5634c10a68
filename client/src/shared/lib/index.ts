export { deleteCookie, readCookie, writeSessionCookie } from './cookie';
export { normalizeEmail } from './email';
