import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $sessionStatus, clearTokenFx, logoutFx } from '../entities/session';
import { sessionEndedReceived } from '../shared/realtime';
import { $location, navigated } from '../shared/routing';
import { $deactivatedDialogOpen } from '../widgets/deactivated-dialog';
import './model';

describe('a session the push server ends', () => {
  const setup = () => {
    const scope = fork({
      values: [[$sessionStatus, 'signed-in']],
      handlers: [
        [clearTokenFx, () => undefined],
        [logoutFx, async () => undefined],
      ],
    });
    return { scope };
  };

  it("'deactivated' (an overdue invoice) ends the session and opens the Account Deactivated dialog", async () => {
    const { scope } = setup();
    const seen: unknown[] = [];
    const unwatch = navigated.watch((n) => seen.push(n));
    await allSettled(sessionEndedReceived, { scope, params: { reason: 'deactivated' } });
    unwatch();
    expect(scope.getState($sessionStatus)).toBe('anonymous');
    expect(seen).toContainEqual({ to: '/?showDeactivatedModal=true', replace: true });
    // The routing model reads the address bar; with the flag set the dialog opens.
    await allSettled($location, { scope, params: { pathname: '/', search: '?showDeactivatedModal=true', hash: '' } as never });
    expect(scope.getState($deactivatedDialogOpen)).toBe(true);
  });

  it('an expired token goes back to sign-in without the dialog; nothing happens once signed out', async () => {
    const { scope } = setup();
    await allSettled(sessionEndedReceived, { scope, params: { reason: 'expired' } });
    expect(scope.getState($sessionStatus)).toBe('anonymous');
    expect(scope.getState($deactivatedDialogOpen)).toBe(false);
    await allSettled(sessionEndedReceived, { scope, params: { reason: 'deactivated' } });
    expect(scope.getState($deactivatedDialogOpen)).toBe(false);
  });
});
