import { describe, expect, it } from 'vitest';
import { batchDayOf, batchStatus, batchWarningState, isBatchExpired } from './batch-status.ts';
import { meetsPasswordPolicy, resetPasswordProblem } from './password.ts';
import { accessLevel } from './access.ts';
import { deviceWarnings, hasFailedRequest, warningFlags } from './warnings.ts';
import { firstErrorMessage } from '../schemas/common.ts';

describe('password policy (spec section 5)', () => {
  it.each([
    ['Demo1234', true],
    ['demo1234', false],
    ['DEMO1234', false],
    ['Demoabcd', false],
    ['Dem1234', false],
  ])('%s meets policy: %s', (pw, ok) => expect(meetsPasswordPolicy(pw)).toBe(ok));

  it('asks for the policy first, then for matching fields', () => {
    expect(resetPasswordProblem('short', 'short')).toBe(
      'Password must be at least 8 characters and include uppercase, lowercase, and digit.',
    );
    expect(resetPasswordProblem('Abcdefg1', 'Abcdefg2')).toBe('Please make sure your passwords match.');
    expect(resetPasswordProblem('Abcdefg1', 'Abcdefg1')).toBeNull();
  });
});

describe('access level', () => {
  it('market-partner user_type wins over role', () => {
    expect(accessLevel({ role: 'distributor', user_type: 'market-partner' })).toBe('market-partner');
    expect(accessLevel({ role: 'distributor', user_type: 'distributor' })).toBe('distributor');
    expect(accessLevel({ role: 'client', user_type: 'client' })).toBe('client');
    expect(accessLevel({ role: 'unknown', user_type: null })).toBe('client');
  });
});

describe('batch status', () => {
  const today = '2026-11-22';
  it('is EXPIRED the day after its expiry date, not on it', () => {
    expect(batchStatus({ expireDate: '2026-11-21', inUse: true }, today)).toBe('EXPIRED');
    expect(batchStatus({ expireDate: '2026-11-22', inUse: true }, today)).toBe('ALMOST_EXPIRED');
  });
  it('is ALMOST_EXPIRED within 30 days, else in use or not', () => {
    expect(batchStatus({ expireDate: '2026-12-22', inUse: false }, today)).toBe('ALMOST_EXPIRED');
    expect(batchStatus({ expireDate: '2026-12-23', inUse: false }, today)).toBe('NOT_IN_USE');
    expect(batchStatus({ expireDate: '2027-06-01', inUse: true }, today)).toBe('IN_USE');
  });
  it('reads a stored expiry date by its calendar day, for the warnings too', () => {
    expect(isBatchExpired('2026-11-21 00:00:00', today)).toBe(true);
    expect(isBatchExpired('2026-11-22', today)).toBe(false);
    expect(batchWarningState('2026-11-21', null, today)).toEqual({ expired: true, recalled: false });
    expect(batchWarningState('2027-01-01', true, today)).toEqual({ expired: false, recalled: true });
    expect(batchWarningState(null, null, today)).toBeNull();
    // Judged on the UTC day: 23:30 in Chicago on the 22nd is already the 23rd.
    expect(batchDayOf(new Date('2026-11-22T23:30:00-06:00'))).toBe('2026-11-23');
  });
});

describe('FAILED_REQUEST (a failed or expired change until a newer request of its setting)', () => {
  const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 12, minute)).toISOString();
  it.each([
    ['no changes', [], false],
    ['one failed', [{ setting: 'active', status: 'failed', requestedAt: at(0) }], true],
    ['one expired', [{ setting: 'active', status: 'expired', requestedAt: at(0) }], true],
    [
      'applied and pending only',
      [
        { setting: 'active', status: 'applied', requestedAt: at(0) },
        { setting: 'rental', status: 'pending', requestedAt: at(1) },
      ],
      false,
    ],
    [
      'failed, then asked again',
      [
        { setting: 'active', status: 'failed', requestedAt: at(0) },
        { setting: 'active', status: 'pending', requestedAt: at(1) },
      ],
      false,
    ],
    [
      'failed, another setting asked again',
      [
        { setting: 'active', status: 'failed', requestedAt: at(0) },
        { setting: 'rental', status: 'applied', requestedAt: at(1) },
      ],
      true,
    ],
    [
      'failed after an older request',
      [
        { setting: 'active', status: 'applied', requestedAt: at(0) },
        { setting: 'active', status: 'expired', requestedAt: at(1) },
      ],
      true,
    ],
  ] as const)('%s', (_name, changes, expected) => {
    expect(hasFailedRequest(changes)).toBe(expected);
  });
});

describe('device warnings', () => {
  const base = {
    batteryPercent: 80,
    leftPumpType: 'Sunscreen',
    rightPumpType: 'Sanitizer',
    levelSensor1: true,
    levelSensor2: true,
    volumeRemain: 900,
    volumeRemain2: 900,
    neverReported: false,
  };
  it('a healthy device has none', () => expect(deviceWarnings(base)).toEqual([]));
  it('flags battery below 50 %, not at 50 %', () => {
    expect(deviceWarnings({ ...base, batteryPercent: 49.9 })).toEqual(['BATTERY']);
    expect(deviceWarnings({ ...base, batteryPercent: 50 })).toEqual([]);
  });
  it('flags low fluid at 250 or less and an empty sensor by fluid and side', () => {
    expect(deviceWarnings({ ...base, volumeRemain2: 250, levelSensor2: false })).toEqual([
      'RIGHT_SANITIZER_PUMP',
      'RIGHT_PUMP_VOLUME',
    ]);
    expect(deviceWarnings({ ...base, volumeRemain: 251 })).toEqual([]);
  });
  it('ignores an Unspecified pump', () => {
    expect(deviceWarnings({ ...base, rightPumpType: 'Unspecified', volumeRemain2: 0, levelSensor2: false })).toEqual([]);
  });
  it('flags expired and recalled batches and sets the batch flag', () => {
    const list = deviceWarnings({
      ...base,
      leftBatch: { expired: true, recalled: false },
      rightBatch: { expired: false, recalled: true },
    });
    expect(list).toEqual(['BATCH_EXPIRED', 'BATCH_RECALLED']);
    expect(warningFlags(list)).toEqual({ isWarning: true, isBatchWarning: true, batteryWarning: false });
  });
});

describe('firstErrorMessage (sign-up failure text)', () => {
  it('prefers the password message, else the first element', () => {
    expect(firstErrorMessage({ email: ['taken'], password: ['too short'] })).toBe('too short');
    expect(firstErrorMessage({ email: ['user with this email already exists.'] })).toBe('user with this email already exists.');
    expect(firstErrorMessage({ detail: 'nope' })).toBe('nope');
    expect(firstErrorMessage(null)).toBe('Something went wrong.');
  });
});

describe('warnings in words', () => {
  it('names every warning code in words and passes an unknown code through', async () => {
    const { WARNING_CODES } = await import('../constants.ts');
    const { WARNING_TEXT, warningText } = await import('./warnings.ts');
    for (const code of WARNING_CODES) expect(WARNING_TEXT[code]).toMatch(/^[A-Z][a-z ]+$/);
    expect(warningText('LEFT_SANITIZER_PUMP')).toBe('Left sanitizer pump empty');
    expect(warningText('NEW_CODE')).toBe('NEW_CODE');
  });
});
