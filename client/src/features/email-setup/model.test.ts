import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $reportEmails, fetchReportEmailsFx, type ReportEmail } from '../../entities/report';
import { HttpError } from '../../shared/api';
import {
  $canAdd,
  $open,
  $result,
  $rows,
  addClicked,
  addEmailFx,
  deleteClicked,
  deleteEmailFx,
  editEmailsFx,
  emailSetupCancelled,
  emailSetupOpened,
  emailSetupSaved,
  enabledToggled,
  newEmailChanged,
  newNameChanged,
  resultTimerFx,
} from './model';

const ops: ReportEmail = { id: 1, name: 'Ops', email: 'ops@x.test', is_enable: true, confirmed: true };
const boss: ReportEmail = { id: 2, name: 'Boss', email: 'boss@x.test', is_enable: false, confirmed: true };
const base = [
  [fetchReportEmailsFx, async () => [ops, boss]],
  // The timer of an older popup: this one stays.
  [resultTimerFx, async () => -1],
];
const scope = (handlers: readonly unknown[] = []) => fork({ handlers: [...base, ...handlers] as never });

describe('Email Setup', () => {
  it('sends nothing without both a name and an email; adds and says EMAIL ADDED', async () => {
    const sent: unknown[] = [];
    const s = scope([
      [addEmailFx, async (input: { name: string; email: string }) => (sent.push(input), { id: 3, ...input, is_enable: true })],
    ]);
    await allSettled(emailSetupOpened, { scope: s });
    expect(s.getState($open)).toBe(true);
    await allSettled(newNameChanged, { scope: s, params: 'Night shift' });
    expect(s.getState($canAdd)).toBe(false);
    await allSettled(addClicked, { scope: s });
    expect(sent).toEqual([]);
    await allSettled(newEmailChanged, { scope: s, params: ' night@x.test ' });
    await allSettled(addClicked, { scope: s });
    expect(sent).toEqual([{ name: 'Night shift', email: 'night@x.test' }]);
    expect(s.getState($reportEmails).map((e) => e.id)).toEqual([1, 2, 3]);
    expect(s.getState($result)).toMatchObject({ tone: 'success', title: 'EMAIL ADDED' });
  });

  it('says FAIL TO ADD EMAIL with the reason', async () => {
    const s = scope([
      [addEmailFx, async () => Promise.reject(new HttpError(400, { email: ['This email is already in the list.'] }))],
    ]);
    await allSettled(emailSetupOpened, { scope: s });
    await allSettled(newNameChanged, { scope: s, params: 'Ops' });
    await allSettled(newEmailChanged, { scope: s, params: 'ops@x.test' });
    await allSettled(addClicked, { scope: s });
    expect(s.getState($result)).toMatchObject({
      tone: 'danger',
      title: 'FAIL TO ADD EMAIL',
      message: 'This email is already in the list.',
    });
  });

  it('keeps switches until Save, which sends the changed rows and says EMAIL EDITTED; Cancel forgets them', async () => {
    const sent: unknown[] = [];
    const s = scope([
      [editEmailsFx, async (rows: ReportEmail[]) => (sent.push(rows.map((r) => ({ id: r.id, is_enable: r.is_enable }))), rows)],
    ]);
    await allSettled(emailSetupOpened, { scope: s });
    await allSettled(enabledToggled, { scope: s, params: 1 });
    expect(s.getState($rows).map((r) => r.is_enable)).toEqual([false, false]);
    await allSettled(emailSetupCancelled, { scope: s });
    expect(s.getState($rows).map((r) => r.is_enable)).toEqual([true, false]);
    await allSettled(emailSetupOpened, { scope: s });
    await allSettled(enabledToggled, { scope: s, params: 2 });
    await allSettled(enabledToggled, { scope: s, params: 1 });
    await allSettled(enabledToggled, { scope: s, params: 1 });
    await allSettled(emailSetupSaved, { scope: s });
    expect(sent).toEqual([[{ id: 2, is_enable: true }]]);
    expect(s.getState($open)).toBe(false);
    expect(s.getState($reportEmails).find((e) => e.id === 2)!.is_enable).toBe(true);
    expect(s.getState($result)).toMatchObject({ tone: 'success', title: 'EMAIL EDITTED' });
  });

  it('Save with nothing changed just closes; a refused edit says FAIL TO EDIT EMAIL and stays open', async () => {
    const s = scope([[editEmailsFx, async () => Promise.reject(new HttpError(500, null))]]);
    await allSettled(emailSetupOpened, { scope: s });
    await allSettled(emailSetupSaved, { scope: s });
    expect(s.getState($open)).toBe(false);
    expect(s.getState($result)).toBeNull();
    await allSettled(emailSetupOpened, { scope: s });
    await allSettled(enabledToggled, { scope: s, params: 1 });
    await allSettled(emailSetupSaved, { scope: s });
    expect(s.getState($open)).toBe(true);
    expect(s.getState($result)).toMatchObject({ tone: 'danger', title: 'FAIL TO EDIT EMAIL' });
  });

  it('deletes at once: EMAIL DELETED, or FAIL TO DELETE EMAIL', async () => {
    let fail = false;
    const s = scope([[deleteEmailFx, async (id: number) => (fail ? Promise.reject(new HttpError(500, null)) : id)]]);
    await allSettled(emailSetupOpened, { scope: s });
    await allSettled(deleteClicked, { scope: s, params: 2 });
    expect(s.getState($rows).map((r) => r.id)).toEqual([1]);
    expect(s.getState($result)).toMatchObject({ title: 'EMAIL DELETED' });
    fail = true;
    await allSettled(deleteClicked, { scope: s, params: 1 });
    expect(s.getState($rows).map((r) => r.id)).toEqual([1]);
    expect(s.getState($result)).toMatchObject({ tone: 'danger', title: 'FAIL TO DELETE EMAIL' });
  });

  it('the popup closes itself', async () => {
    const s = fork({
      handlers: [
        [fetchReportEmailsFx, async () => []],
        [deleteEmailFx, async (id: number) => id],
        [resultTimerFx, async (seq: number) => seq],
      ] as never,
    });
    await allSettled(deleteClicked, { scope: s, params: 9 });
    expect(s.getState($result)).toBeNull();
  });
});
