import type { ClientUser, SignUpDecisionAnswer, UserAccount } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $pendingUsers, fetchClientUsersFx, fetchPendingUsersFx } from '../../entities/user';
import { HttpError } from '../../shared/api';
import {
  $detailMode,
  activateClicked,
  activateFx,
  decisionPopup,
  editAccountClicked,
  rejectClicked,
  rejectConfirmed,
  rejectFx,
  requestForm,
  viewDetailClicked,
} from './model';

const REQUEST: UserAccount = {
  id: 9,
  name: 'Ada',
  username: 'Ada',
  company: 'Ada Co',
  email: 'ada@x.test',
  phone: '',
  role: 'distributor',
  user_type: 'distributor',
  type: 'Client',
  activated: false,
  rejected: false,
  profile_url: null,
  is_enable_notification_email: true,
  is_enable_notification_phone: false,
  is_enable_notification_weekly_report: false,
  is_enable_notification_daily_dispensation: false,
  created_at: '2026-01-01T00:00:00.000Z',
};
const CLIENT: ClientUser = {
  id: 2,
  name: 'Chris',
  company: 'Parks',
  email: 'c@x.test',
  phone: '',
  brands: [],
  profile_url: null,
  is_enable_notification_email: false,
  is_enable_notification_phone: true,
};

function setup(fail = false, rereadPending: () => Promise<UserAccount[]> = async () => [], pending: UserAccount[] = []) {
  const calls: string[] = [];
  const decided =
    (call: string) =>
    async (email: string): Promise<SignUpDecisionAnswer> => {
      calls.push(`${call} ${email}`);
      if (fail) throw new HttpError(400, { detail: 'This account is already active.' });
      return { detail: `${email} has been ${call}!`, already: false, user: REQUEST };
    };
  const scope = fork({
    values: [[$pendingUsers, pending]],
    handlers: [
      [activateFx, decided('activated')],
      [rejectFx, decided('rejected')],
      [fetchPendingUsersFx, async () => (calls.push('pending'), rereadPending())],
      [fetchClientUsersFx, async () => (calls.push('clients'), [])],
    ],
  });
  return { scope, calls };
}

describe('request detail', () => {
  it("activates a request: '{email} has been activated!', detail closed, both lists read again", async () => {
    const { scope, calls } = setup();
    await allSettled(viewDetailClicked, { scope, params: REQUEST });
    expect(scope.getState($detailMode)).toBe('request');
    expect(scope.getState(requestForm.$editing)).toBe(false);
    expect(scope.getState(requestForm.$account)?.type).toBe('Client');
    await allSettled(activateClicked, { scope });
    expect(calls[0]).toBe('activated ada@x.test');
    expect(calls.slice(1).sort()).toEqual(['clients', 'pending']);
    expect(scope.getState(decisionPopup.$result)).toMatchObject({ tone: 'success', title: 'ada@x.test has been activated!' });
    expect(scope.getState($detailMode)).toBeNull();
  });

  it("rejects only after the question is confirmed: '{email} has been rejected!'", async () => {
    const { scope, calls } = setup();
    await allSettled(viewDetailClicked, { scope, params: REQUEST });
    await allSettled(rejectClicked, { scope });
    expect(calls).toEqual([]);
    await allSettled(rejectConfirmed, { scope });
    expect(calls[0]).toBe('rejected ada@x.test');
    expect(scope.getState(decisionPopup.$result)?.title).toBe('ada@x.test has been rejected!');
  });

  it('takes the decided request off the list with the popup, before the list read again answers', async () => {
    const OTHER = { ...REQUEST, id: 10, email: 'bo@x.test' };
    let answer!: (list: UserAccount[]) => void;
    const { scope } = setup(false, () => new Promise((resolve) => (answer = resolve)), [REQUEST, OTHER]);
    await allSettled(viewDetailClicked, { scope, params: REQUEST });
    await allSettled(rejectClicked, { scope });
    const confirmed = allSettled(rejectConfirmed, { scope });
    await new Promise((r) => setTimeout(r, 0));
    expect(scope.getState(decisionPopup.$result)?.title).toBe('ada@x.test has been rejected!');
    expect(scope.getState($pendingUsers).map((u) => u.email)).toEqual(['bo@x.test']);
    answer([OTHER]);
    await confirmed;
    expect(scope.getState($pendingUsers).map((u) => u.email)).toEqual(['bo@x.test']);
  });

  it('decides nothing while an edit is open, and answers a failure with the reason, keeping the detail', async () => {
    const { scope, calls } = setup(true);
    await allSettled(viewDetailClicked, { scope, params: REQUEST });
    await allSettled(requestForm.editStarted, { scope });
    await allSettled(activateClicked, { scope });
    expect(calls).toEqual([]);
    await allSettled(requestForm.editCancelled, { scope });
    await allSettled(activateClicked, { scope });
    expect(scope.getState(decisionPopup.$result)).toMatchObject({ tone: 'danger', message: 'This account is already active.' });
    expect(scope.getState($detailMode)).toBe('request');
  });

  it('opens a client of the client list in account-edit mode, always editable', async () => {
    const { scope } = setup();
    await allSettled(editAccountClicked, { scope, params: CLIENT });
    expect(scope.getState($detailMode)).toBe('account');
    expect(scope.getState(requestForm.$editing)).toBe(true);
    expect(scope.getState(requestForm.$draft)).toMatchObject({ username: 'Chris', notifyPhone: true });
  });
});
