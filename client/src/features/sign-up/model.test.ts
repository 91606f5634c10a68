import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/api';
import {
  $signUpButtonText,
  $signUpResult,
  notificationToggled,
  signUpFieldChanged,
  signUpFx,
  signUpSubmitted,
  type SignUpField,
  type SignUpPayload,
} from './model';

async function fill(scope: ReturnType<typeof fork>, values: Partial<Record<SignUpField, string>>) {
  for (const [field, value] of Object.entries(values)) await allSettled(signUpFieldChanged, { scope, params: { field: field as SignUpField, value } });
}

const VALID = { username: 'Dee Distributor', company: 'Dee Co', email: '  New@Example.TEST ', phone: '+1 504 555 0199', password: 'Secret123' };

describe('sign-up model', () => {
  it('sends the spec payload (email lowercased, role distributor, ticks) and turns the button to Sign Up Success !', async () => {
    const sent: SignUpPayload[] = [];
    const scope = fork({ handlers: [[signUpFx, async (payload: SignUpPayload) => void sent.push(payload)]] });
    await fill(scope, VALID);
    await allSettled(notificationToggled, { scope, params: 'email' });
    expect(scope.getState($signUpButtonText)).toBe('Sign Up');

    await allSettled(signUpSubmitted, { scope });
    expect(sent).toEqual([
      {
        isEnableNotificationEmail: true,
        isEnableNotificationPhone: false,
        email: 'new@example.test',
        username: 'Dee Distributor',
        password: 'Secret123',
        role: 'distributor',
        company: 'Dee Co',
        phone: '+1 504 555 0199',
      },
    ]);
    expect(scope.getState($signUpResult)).toEqual({ status: 'success' });
    expect(scope.getState($signUpButtonText)).toBe('Sign Up Success !');
  });

  it('reads the failure from the 400 body: the first element, or the password field first', async () => {
    let body: unknown = { email: ['user with this email already exists.'] };
    const scope = fork({
      handlers: [
        [
          signUpFx,
          async () => {
            throw new HttpError(400, body);
          },
        ],
      ],
    });
    await fill(scope, VALID);
    await allSettled(signUpSubmitted, { scope });
    expect(scope.getState($signUpButtonText)).toBe('Sign Up Fail : user with this email already exists.');

    body = { email: ['Enter a valid email address.'], password: ['This password is too short. It must contain at least 8 characters.'] };
    await allSettled(signUpSubmitted, { scope });
    expect(scope.getState($signUpButtonText)).toBe('Sign Up Fail : This password is too short. It must contain at least 8 characters.');
  });

  it('clears the result when any field or tick is edited', async () => {
    const scope = fork({
      handlers: [
        [
          signUpFx,
          async () => {
            throw new HttpError(400, { username: ['This field may not be blank.'] });
          },
        ],
      ],
    });
    await allSettled(signUpSubmitted, { scope });
    expect(scope.getState($signUpResult).status).toBe('failure');
    await allSettled(signUpFieldChanged, { scope, params: { field: 'phone', value: '1' } });
    expect(scope.getState($signUpResult)).toEqual({ status: 'idle' });

    await allSettled(signUpSubmitted, { scope });
    await allSettled(notificationToggled, { scope, params: 'phone' });
    expect(scope.getState($signUpButtonText)).toBe('Sign Up');
  });

  it('reads a server that could not be reached as Something went wrong.', async () => {
    const scope = fork({
      handlers: [
        [
          signUpFx,
          async () => {
            throw new HttpError(0, null);
          },
        ],
      ],
    });
    await allSettled(signUpSubmitted, { scope });
    expect(scope.getState($signUpButtonText)).toBe('Sign Up Fail : Something went wrong.');
  });
});
