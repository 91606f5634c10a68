import type { UserAccount } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/api';
import { createAccountForm, draftOf, editUserForm, type AccountView } from './account-form';

const VIEW: AccountView = {
  email: 'ada@x.test',
  name: 'Ada',
  company: 'Ada Co',
  phone: '',
  profile_url: null,
  type: 'Client',
  is_enable_notification_email: true,
  is_enable_notification_phone: false,
};
const answer = (over: Partial<UserAccount> = {}): UserAccount => ({
  id: 9,
  name: 'Ada',
  username: 'Ada',
  company: 'Ada Co',
  email: 'ada@x.test',
  phone: '',
  role: 'client',
  user_type: 'client',
  type: 'Client',
  activated: false,
  rejected: false,
  profile_url: null,
  is_enable_notification_email: true,
  is_enable_notification_phone: false,
  is_enable_notification_weekly_report: false,
  is_enable_notification_daily_dispensation: false,
  created_at: '2026-01-01T00:00:00.000Z',
  ...over,
});
const fields = (form: FormData) =>
  Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : `file:${v.name}`]));

describe('the editUser body', () => {
  it("sends the flags as 'True'/'False', 'None' for switches the form does not show, and the image or the removal", () => {
    const draft = { ...draftOf(VIEW), phone: '+1 555' };
    expect(fields(editUserForm(draft, { switches: false, image: null, removeImage: false }))).toEqual({
      username: 'Ada',
      company: 'Ada Co',
      phone: '+1 555',
      isEnableNotificationEmail: 'True',
      isEnableNotificationPhone: 'False',
      isEnableNotificationWeeklyReport: 'None',
      isEnableNotificationDailyDispensation: 'None',
    });
    const withSwitches = fields(
      editUserForm({ ...draft, notifyWeeklyReport: true }, { switches: true, image: null, removeImage: true }),
    );
    expect(withSwitches).toMatchObject({
      isEnableNotificationWeeklyReport: 'True',
      isEnableNotificationDailyDispensation: 'False',
      isRemoveImage: 'True',
    });
    const file = new File([new Uint8Array([1])], 'me.png', { type: 'image/png' });
    const withImage = fields(editUserForm(draft, { switches: false, image: file, removeImage: true }));
    expect(withImage.image).toBe('file:me.png');
    expect(withImage.isRemoveImage).toBeUndefined();
  });
});

describe('an account form', () => {
  it('is read-only until edited; Save sends the draft, then shows the answer read-only again', async () => {
    const form = createAccountForm({ switches: false });
    const sent: Record<string, string>[] = [];
    const scope = fork({
      handlers: [
        [
          form.saveFx,
          async ({ form: body }: { email: string; form: FormData }) => (sent.push(fields(body)), answer({ company: 'Ada & Co' })),
        ],
      ],
    });
    await allSettled(form.opened, { scope, params: { account: VIEW, alwaysEditable: false } });
    expect(scope.getState(form.$editing)).toBe(false);
    await allSettled(form.saveClicked, { scope });
    expect(sent).toEqual([]);
    await allSettled(form.editStarted, { scope });
    await allSettled(form.fieldChanged, { scope, params: { company: 'Ada & Co' } });
    await allSettled(form.saveClicked, { scope });
    expect(sent[0]).toMatchObject({ company: 'Ada & Co' });
    expect(scope.getState(form.$editing)).toBe(false);
    expect(scope.getState(form.$account)?.company).toBe('Ada & Co');
    expect(scope.getState(form.$draft)?.company).toBe('Ada & Co');
  });

  it('Cancel goes back to what was shown; an always-editable form stays editable', async () => {
    const form = createAccountForm({ switches: false });
    const scope = fork();
    await allSettled(form.opened, { scope, params: { account: VIEW, alwaysEditable: true } });
    expect(scope.getState(form.$editing)).toBe(true);
    await allSettled(form.fieldChanged, { scope, params: { username: 'Someone else' } });
    await allSettled(form.editCancelled, { scope });
    expect(scope.getState(form.$draft)?.username).toBe('Ada');
    expect(scope.getState(form.$editing)).toBe(true);
  });

  it("answers a failure with the server's field messages and keeps the edit", async () => {
    const form = createAccountForm({ switches: true });
    const scope = fork({
      handlers: [
        [form.saveFx, async () => Promise.reject(new HttpError(400, { image: ['Upload a PNG, JPEG, GIF or WebP image.'] }))],
      ],
    });
    await allSettled(form.opened, { scope, params: { account: VIEW, alwaysEditable: true } });
    await allSettled(form.imageChosen, { scope, params: new File(['<?php'], 'a.png') });
    await allSettled(form.saveClicked, { scope });
    expect(scope.getState(form.$fieldErrors)).toEqual({ image: 'Upload a PNG, JPEG, GIF or WebP image.' });
    expect(scope.getState(form.$error)).toBe('Upload a PNG, JPEG, GIF or WebP image.');
    expect(scope.getState(form.$editing)).toBe(true);
    expect(scope.getState(form.$image)?.name).toBe('a.png');
  });
});
