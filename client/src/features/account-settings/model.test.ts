import type { CurrentUser, UserAccount } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $user, fetchCurrentUserFx } from '../../entities/session';
import { $savedNotice, accountSettingsShown, settingsForm } from './model';

const ME: CurrentUser = {
  id: 1,
  email: 'partner@x.test',
  username: 'Pat',
  company: 'Big Easy',
  phone: '',
  role: 'distributor',
  user_type: 'market-partner',
  access: 'market-partner',
  profile_url: null,
  activated: true,
  is_enable_notification_email: false,
  is_enable_notification_phone: false,
  is_enable_notification_weekly_report: false,
  is_enable_notification_daily_dispensation: true,
};

describe('account settings', () => {
  it('shows the own account with its type; Save sends the switches and reads the current user again', async () => {
    const sent: FormData[] = [];
    let reads = 0;
    const scope = fork({
      values: [[$user, ME]],
      handlers: [
        [
          settingsForm.saveFx,
          async ({ form }: { form: FormData }) => (
            sent.push(form),
            { ...ME, name: 'Pat', type: 'Market Partner' } as unknown as UserAccount
          ),
        ],
        [fetchCurrentUserFx, async () => (reads++, ME)],
      ],
    });
    await allSettled(accountSettingsShown, { scope });
    expect(scope.getState(settingsForm.$account)).toMatchObject({ type: 'Market Partner', email: 'partner@x.test' });
    expect(scope.getState(settingsForm.$editing)).toBe(false);
    await allSettled(settingsForm.editStarted, { scope });
    await allSettled(settingsForm.fieldChanged, { scope, params: { notifyWeeklyReport: true, phone: '+1 504' } });
    await allSettled(settingsForm.saveClicked, { scope });
    expect(sent[0]?.get('isEnableNotificationWeeklyReport')).toBe('True');
    expect(sent[0]?.get('isEnableNotificationDailyDispensation')).toBe('True');
    expect(sent[0]?.get('phone')).toBe('+1 504');
    expect(reads).toBe(1);
    expect(scope.getState($savedNotice)).toBe(true);
    expect(scope.getState(settingsForm.$editing)).toBe(false);
  });
});
