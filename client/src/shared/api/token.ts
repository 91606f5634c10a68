import { deleteCookie, readCookie, writeSessionCookie } from '../lib';

/** The API token lives in a session cookie of this name (path /), as existing deployments expect. */
export const TOKEN_COOKIE = 'userToken';

export const readToken = (): string | undefined => readCookie(TOKEN_COOKIE) || undefined;
export const saveToken = (token: string): void => writeSessionCookie(TOKEN_COOKIE, token);
export const clearToken = (): void => deleteCookie(TOKEN_COOKIE);
