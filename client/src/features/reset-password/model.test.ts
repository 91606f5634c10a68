import { MESSAGES } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/api';
import {
  $resetProblem,
  $resetResult,
  $resetSettled,
  $resetToken,
  newPasswordChanged,
  resetCleared,
  repeatPasswordChanged,
  resetPasswordFx,
  resetSubmitted,
  resetTokenReceived,
} from './model';

function setup(handler: (body: { token: string; password: string }) => Promise<unknown> = async () => ({})) {
  const calls: { token: string; password: string }[] = [];
  const scope = fork({
    handlers: [
      [
        resetPasswordFx,
        async (body: { token: string; password: string }) => {
          calls.push(body);
          return handler(body);
        },
      ],
    ],
  });
  return { scope, calls };
}

async function submit(scope: ReturnType<typeof fork>, password: string, repeat: string) {
  await allSettled(newPasswordChanged, { scope, params: password });
  await allSettled(repeatPasswordChanged, { scope, params: repeat });
  await allSettled(resetSubmitted, { scope });
}

describe('reset-password model', () => {
  it.each([
    ['short', 'Ab1', 'Ab1'],
    ['no digit', 'Abcdefgh', 'Abcdefgh'],
    ['no uppercase', 'abcdefg1', 'abcdefg1'],
    ['no lowercase', 'ABCDEFG1', 'ABCDEFG1'],
    ['repeat fails the policy', 'Abcdefg1', 'abc'],
  ])('asks for the policy (%s) without calling the server', async (_case, password, repeat) => {
    const { scope, calls } = setup();
    await allSettled(resetTokenReceived, { scope, params: 'tok' });
    await submit(scope, password, repeat);
    expect(scope.getState($resetProblem)).toBe(
      'Password must be at least 8 characters and include uppercase, lowercase, and digit.',
    );
    expect(calls).toEqual([]);
  });

  it('asks for matching passwords once both meet the policy', async () => {
    const { scope, calls } = setup();
    await allSettled(resetTokenReceived, { scope, params: 'tok' });
    await submit(scope, 'Abcdefg1', 'Abcdefg2');
    expect(scope.getState($resetProblem)).toBe(MESSAGES.passwordMismatch);
    expect(calls).toEqual([]);
  });

  it('sends token and password, then shows success and settles: the token is spent, a second submit sends nothing and adds no error', async () => {
    const { scope, calls } = setup();
    await allSettled(resetTokenReceived, { scope, params: 'tok-123' });
    await submit(scope, 'NewPass99', 'NewPass99');
    expect(calls).toEqual([{ token: 'tok-123', password: 'NewPass99' }]);
    expect(scope.getState($resetResult)).toBe('success');
    expect(scope.getState($resetSettled)).toBe(true);
    expect(scope.getState($resetProblem)).toBeNull();
    expect(scope.getState($resetToken)).toBeNull();
    await allSettled(resetSubmitted, { scope });
    await submit(scope, 'NewPass99', 'NewPass99');
    expect(calls).toHaveLength(1);
    expect(scope.getState($resetProblem)).toBeNull();
    expect(scope.getState($resetResult)).toBe('success');
    // Leaving the view starts afresh.
    await allSettled(resetCleared, { scope });
    expect(scope.getState($resetResult)).toBe('idle');
  });

  it('shows Something went wrong. when the server refuses (a used or expired token)', async () => {
    const { scope } = setup(async () => {
      throw new HttpError(400, { token: ['Invalid or expired token.'] });
    });
    await allSettled(resetTokenReceived, { scope, params: 'used' });
    await submit(scope, 'NewPass99', 'NewPass99');
    expect(scope.getState($resetProblem)).toBe('Something went wrong.');
    expect(scope.getState($resetResult)).toBe('idle');
  });
});
