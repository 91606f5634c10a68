import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/api';
import {
  $signUpBlank,
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
  for (const [field, value] of Object.entries(values))
    await allSettled(signUpFieldChanged, { scope, params: { field: field as SignUpField, value } });
}

const VALID = {
  username: 'Dee Distributor',
  company: 'Dee Co',
  email: '  New@Example.TEST ',
  phone: '+1 504 555 0199',
  password: 'Secret123',
};

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

    body = {
      email: ['Enter a valid email address.'],
      password: ['This password is too short. It must contain at least 8 characters.'],
    };
    await allSettled(signUpSubmitted, { scope });
    expect(scope.getState($signUpButtonText)).toBe(
      'Sign Up Fail : This password is too short. It must contain at least 8 characters.',
    );
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
    await fill(scope, VALID);
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
    await fill(scope, VALID);
    await allSettled(signUpSubmitted, { scope });
    expect(scope.getState($signUpButtonText)).toBe('Sign Up Fail : Something went wrong.');
  });
});

describe('sign-up with required fields left blank (issue 42)', () => {
  it('names every blank required field, sends nothing, and marks them until each is edited', async () => {
    const sent: SignUpPayload[] = [];
    const scope = fork({ handlers: [[signUpFx, async (payload: SignUpPayload) => void sent.push(payload)]] });
    await allSettled(signUpSubmitted, { scope });
    expect(sent).toEqual([]);
    expect(scope.getState($signUpButtonText)).toBe('Sign Up Fail : Name, Company, Email and Password are required.');
    expect(scope.getState($signUpBlank)).toEqual(['username', 'company', 'email', 'password']);

    await fill(scope, { company: 'Dee Co', email: 'dee@example.test' });
    expect(scope.getState($signUpBlank)).toEqual(['username', 'password']);
    await allSettled(signUpSubmitted, { scope });
    expect(scope.getState($signUpButtonText)).toBe('Sign Up Fail : Name and Password are required.');
    await fill(scope, { username: 'Dee', password: '   ' });
    await allSettled(signUpSubmitted, { scope });
    expect(scope.getState($signUpButtonText)).toBe('Sign Up Fail : Password is required.');
    expect(sent).toEqual([]);
    await fill(scope, { password: 'Secret123' });
    await allSettled(signUpSubmitted, { scope });
    expect(sent).toHaveLength(1);
  });
});
