import type { CurrentUser } from '@fleet/shared';
import { accessLevel, type AccessLevel, authApi } from '@fleet/shared';
import { createEffect, createEvent, createStore, sample } from 'effector';
import { apiAuthFailed, call, clearToken, createApiFx, readToken, saveToken } from '../../shared/api';
import { navigated } from '../../shared/routing';
import { yieldToBrowser } from '../../shared/lib';

// This module's units are built in a task of their own (yield-to-browser.ts says why).
await yieldToBrowser();

/**
 * The session behind the `userToken` cookie (spec sections 4, 7, 8). The token is checked with
 * GET /api/v1/user at start and after each login. Any call answered 401 clears the session and goes
 * to /; 403 (a deactivated account) clears it and goes to /?showDeactivatedModal=true.
 */
export type SessionStatus = 'unknown' | 'checking' | 'anonymous' | 'signed-in' | 'unavailable';
export type SessionEndReason = 'logout' | 'unauthorized' | 'deactivated';

export const DEACTIVATED_FLAG = 'showDeactivatedModal';
export const DEACTIVATED_URL = `/?${DEACTIVATED_FLAG}=true`;

export const sessionCheckRequested = createEvent();
/** A login answered with this token. */
export const tokenReceived = createEvent<string>();
export const logoutRequested = createEvent();
export const sessionEnded = createEvent<SessionEndReason>();

export const readTokenFx = createEffect((): string | null => readToken() ?? null);
export const saveTokenFx = createEffect((token: string) => saveToken(token));
export const clearTokenFx = createEffect(() => clearToken());
export const fetchCurrentUserFx = createApiFx<void, CurrentUser>(() => call(authApi.user));
/** POST /auth/token/logout/: best effort, an expired token still signs out locally. */
export const logoutFx = createEffect(async () => {
  await call(authApi.logout).catch(() => undefined);
});

export const $user = createStore<CurrentUser | null>(null);
export const $sessionStatus = createStore<SessionStatus>('unknown');
export const $accessLevel = $user.map((user): AccessLevel | null => (user ? accessLevel(user) : null));
/** User Management (spec section 2) opens for every role but client: the profile image and the dialog ask this. */
export const $canOpenUserManagement = $accessLevel.map((level) => level !== null && level !== 'client');
export const $signedIn = $sessionStatus.map((status) => status === 'signed-in');

$user.on(fetchCurrentUserFx.doneData, (_, user) => user).reset(sessionEnded);
$sessionStatus
  .on(fetchCurrentUserFx, () => 'checking')
  .on(fetchCurrentUserFx.doneData, () => 'signed-in')
  .on(sessionEnded, () => 'anonymous');

sample({ clock: sessionCheckRequested, target: readTokenFx });
sample({ clock: readTokenFx.doneData, filter: (token) => token !== null, fn: () => undefined, target: fetchCurrentUserFx });
sample({
  clock: readTokenFx.doneData,
  filter: (token) => token === null,
  fn: () => 'anonymous' as const,
  target: $sessionStatus,
});

sample({ clock: tokenReceived, target: saveTokenFx });
sample({ clock: saveTokenFx.done, fn: () => undefined, target: fetchCurrentUserFx });

// The server could not answer (network, 5xx): keep the token so "Try again" can succeed.
sample({
  clock: fetchCurrentUserFx.failData,
  filter: (error) => !('status' in error) || ![401, 403].includes((error as { status: number }).status),
  fn: () => 'unavailable' as const,
  target: $sessionStatus,
});

// Only a session that is still on ends here: a call already in flight when the push server ended the
// session (deactivated) answers 401 a moment later, and must not take the browser from
// /?showDeactivatedModal=true to / (the dialog would stay, its address flag would not).
sample({
  clock: apiAuthFailed,
  source: $sessionStatus,
  filter: (status) => status === 'signed-in' || status === 'checking',
  fn: (_, { status }): SessionEndReason => (status === 403 ? 'deactivated' : 'unauthorized'),
  target: sessionEnded,
});
sample({ clock: logoutRequested, target: logoutFx });
sample({ clock: logoutFx.finally, fn: (): SessionEndReason => 'logout', target: sessionEnded });
sample({ clock: sessionEnded, target: clearTokenFx });
sample({
  clock: sessionEnded,
  fn: (reason) => ({ to: reason === 'deactivated' ? DEACTIVATED_URL : '/', replace: reason !== 'logout' }),
  target: navigated,
});
