import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/api';
import {
  $accountKind,
  $error,
  checkUserFx,
  deactivatedLoginRefused,
  emailChanged,
  loginFx,
  lookupIdleFx,
  passwordChanged,
  signedIn,
  signInSubmitted,
} from './model';

describe('sign-in model', () => {
  it('sends the email lowercased and hands on the token', async () => {
    const sent: unknown[] = [];
    const tokens: string[] = [];
    const scope = fork({
      handlers: [
        [loginFx, async (body: unknown) => (sent.push(body), { auth_token: 't0k' })],
        [lookupIdleFx, async () => -1],
      ],
    });
    signedIn.watch((token) => tokens.push(token));
    await allSettled(emailChanged, { scope, params: ' Client@Demo.TEST ' });
    await allSettled(passwordChanged, { scope, params: 'Demo1234' });
    await allSettled(signInSubmitted, { scope });
    expect(sent).toEqual([{ email: 'client@demo.test', password: 'Demo1234' }]);
    expect(tokens).toEqual(['t0k']);
  });

  it('shows Incorrect email / password on 400, opens the deactivated dialog on 401', async () => {
    let status = 400;
    const refused: number[] = [];
    const scope = fork({
      handlers: [
        [
          loginFx,
          async () => {
            throw new HttpError(status, {});
          },
        ],
        [lookupIdleFx, async () => -1],
      ],
    });
    deactivatedLoginRefused.watch(() => refused.push(1));
    await allSettled(signInSubmitted, { scope });
    expect(scope.getState($error)).toBe('Incorrect email / password');
    await allSettled(passwordChanged, { scope, params: 'x' });
    expect(scope.getState($error)).toBeNull();

    status = 401;
    await allSettled(signInSubmitted, { scope });
    expect(refused).toEqual([1]);
    expect(scope.getState($error)).toBeNull();
  });

  it("says a sign-up request's state in the form (a 401 with a sign_up_ code), never opening the deactivated dialog", async () => {
    const refused: number[] = [];
    const scope = fork({
      handlers: [
        [
          loginFx,
          async () => {
            throw new HttpError(401, {
              detail: 'Your sign-up request was not approved. Please contact your distributor.',
              code: 'sign_up_rejected',
            });
          },
        ],
        [lookupIdleFx, async () => -1],
      ],
    });
    const unwatch = deactivatedLoginRefused.watch(() => refused.push(1));
    await allSettled(signInSubmitted, { scope });
    unwatch();
    expect(refused).toEqual([]);
    expect(scope.getState($error)).toBe('Your sign-up request was not approved. Please contact your distributor.');
  });

  it('looks the role up once typing pauses, only for the latest edit', async () => {
    const looked: string[] = [];
    const scope = fork({
      handlers: [
        [lookupIdleFx, async (edit: number) => edit],
        [
          checkUserFx,
          async (email: string) => (
            looked.push(email),
            { role: email.startsWith('client') ? 'client' : 'distributor', user_type: 'x' }
          ),
        ],
      ],
    });
    await allSettled(emailChanged, { scope, params: 'Distributor@demo.test' });
    expect(looked).toEqual(['distributor@demo.test']);
    expect(scope.getState($accountKind)).toBe('distributor');
    await allSettled(emailChanged, { scope, params: 'client@demo.test' });
    expect(scope.getState($accountKind)).toBe('company');
    await allSettled(emailChanged, { scope, params: 'not-an-email' });
    expect(looked).toHaveLength(2);
    expect(scope.getState($accountKind)).toBeNull();
  });
});
