import type { CurrentUser } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $user } from '../../entities/session';
import { fetchClientUsersFx, fetchPendingUsersFx } from '../../entities/user';
import { settingsForm } from '../../features/account-settings/model';
import {
  $accountSettingsOnly,
  $userManagementOpen,
  $userManagementSection,
  userManagementOpened,
  userManagementSectionSelected,
} from './model';

const user = (access: CurrentUser['access']): CurrentUser => ({
  id: 1,
  email: `${access}@x.test`,
  username: 'U',
  company: 'C',
  phone: '',
  role: access === 'client' ? 'client' : 'distributor',
  user_type: access,
  access,
  profile_url: null,
  activated: true,
  is_enable_notification_email: false,
  is_enable_notification_phone: false,
  is_enable_notification_weekly_report: false,
  is_enable_notification_daily_dispensation: false,
});

function setup(access: CurrentUser['access']) {
  const reads: string[] = [];
  const scope = fork({
    values: [[$user, user(access)]],
    handlers: [
      [fetchPendingUsersFx, async () => (reads.push('pending'), [])],
      [fetchClientUsersFx, async () => (reads.push('clients'), [])],
    ],
  });
  return { scope, reads };
}

describe('user management dialog', () => {
  it('reads the sign-up requests and clients for a distributor each time the section shows', async () => {
    const { scope, reads } = setup('distributor');
    await allSettled(userManagementOpened, { scope });
    expect(scope.getState($userManagementOpen)).toBe(true);
    expect([...reads].sort()).toEqual(['clients', 'pending']);
    await allSettled(userManagementSectionSelected, { scope, params: 'account-settings' });
    expect(scope.getState(settingsForm.$account)?.type).toBe('Distributor');
    await allSettled(userManagementSectionSelected, { scope, params: 'sign-up-requests' });
    expect([...reads].sort()).toEqual(['clients', 'clients', 'pending', 'pending']);
    expect(scope.getState(settingsForm.$account)).toBeNull();
  });

  it('asks nothing of the lists for a market-partner user; a client gets its own Account Settings only', async () => {
    const partner = setup('market-partner');
    await allSettled(userManagementOpened, { scope: partner.scope });
    expect(partner.scope.getState($userManagementOpen)).toBe(true);
    expect(partner.reads).toEqual([]);
    // Issue 42: a client reaches its own settings (its notification switches), never the lists.
    const client = setup('client');
    await allSettled(userManagementOpened, { scope: client.scope });
    expect(client.scope.getState($userManagementOpen)).toBe(true);
    expect(client.scope.getState($userManagementSection)).toBe('account-settings');
    expect(client.scope.getState($accountSettingsOnly)).toBe(true);
    expect(client.scope.getState(settingsForm.$account)?.type).toBe('Client');
    expect(client.reads).toEqual([]);
  });
});
