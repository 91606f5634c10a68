import type { CurrentUser } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { apiAuthFailed, HttpError } from '../../shared/api';
import { pushHistoryFx } from '../../shared/routing';
import {
  $accessLevel,
  $sessionStatus,
  $user,
  clearTokenFx,
  fetchCurrentUserFx,
  logoutFx,
  logoutRequested,
  readTokenFx,
  saveTokenFx,
  sessionCheckRequested,
  tokenReceived,
} from './model';

const USER = {
  id: 1,
  email: 'p@demo.test',
  username: 'P',
  role: 'distributor',
  user_type: 'market-partner',
  profile_url: null,
} as CurrentUser;

function setup(user: () => Promise<CurrentUser>, token: string | null = 'tok') {
  const log: string[] = [];
  const scope = fork({
    handlers: [
      [readTokenFx, () => token],
      [saveTokenFx, (t: string) => void log.push(`save ${t}`)],
      [clearTokenFx, () => void log.push('clear')],
      [fetchCurrentUserFx, user],
      [logoutFx, async () => void log.push('logout')],
      [
        pushHistoryFx,
        ({ to, replace }: { to: string; replace?: boolean }) => (
          log.push(`go ${to}${replace ? ' (replace)' : ''}`),
          { pathname: '/', search: to.slice(1) }
        ),
      ],
    ],
  });
  return { scope, log };
}

describe('session model', () => {
  it('is anonymous without a token and signed in with a valid one', async () => {
    const anonymous = setup(async () => USER, null);
    await allSettled(sessionCheckRequested, { scope: anonymous.scope });
    expect(anonymous.scope.getState($sessionStatus)).toBe('anonymous');

    const { scope } = setup(async () => USER);
    await allSettled(sessionCheckRequested, { scope });
    expect(scope.getState($sessionStatus)).toBe('signed-in');
    expect(scope.getState($accessLevel)).toBe('market-partner');
  });

  it('keeps the token when the server cannot answer', async () => {
    const { scope, log } = setup(async () => {
      throw new HttpError(503, null);
    });
    await allSettled(sessionCheckRequested, { scope });
    expect(scope.getState($sessionStatus)).toBe('unavailable');
    expect(log).toEqual([]);
  });

  it('saves a login token, then loads the user', async () => {
    const { scope, log } = setup(async () => USER);
    await allSettled(tokenReceived, { scope, params: 'abc' });
    expect(log).toEqual(['save abc']);
    expect(scope.getState($user)).toEqual(USER);
  });

  it('clears the session on 401 and goes to /; on 403 goes to /?showDeactivatedModal=true', async () => {
    const unauthorized = setup(async () => {
      throw new HttpError(401, { detail: 'Invalid token.' });
    });
    await allSettled(sessionCheckRequested, { scope: unauthorized.scope });
    expect(unauthorized.scope.getState($sessionStatus)).toBe('anonymous');
    expect(unauthorized.log).toEqual(['clear', 'go / (replace)']);

    const { scope, log } = setup(async () => USER);
    await allSettled(sessionCheckRequested, { scope });
    await allSettled(apiAuthFailed, { scope, params: { status: 403 } });
    expect(scope.getState($user)).toBeNull();
    expect(log).toEqual(['clear', 'go /?showDeactivatedModal=true (replace)']);
  });

  it('a 401 arriving after the session ended (deactivated) keeps the browser on /?showDeactivatedModal=true', async () => {
    const { scope, log } = setup(async () => USER);
    await allSettled(sessionCheckRequested, { scope });
    await allSettled(apiAuthFailed, { scope, params: { status: 403 } });
    // A call that was in flight when the session ended answers 401 now.
    await allSettled(apiAuthFailed, { scope, params: { status: 401 } });
    expect(log).toEqual(['clear', 'go /?showDeactivatedModal=true (replace)']);
    expect(scope.getState($sessionStatus)).toBe('anonymous');
  });

  it('logs out: revokes, clears the cookie and goes to /', async () => {
    const { scope, log } = setup(async () => USER);
    await allSettled(sessionCheckRequested, { scope });
    await allSettled(logoutRequested, { scope });
    expect(log).toEqual(['logout', 'clear', 'go /']);
    expect(scope.getState($sessionStatus)).toBe('anonymous');
  });
});
