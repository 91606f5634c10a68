import type { BatchAnswer, CurrentUser } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fetchBatchListFx } from '../../entities/batch';
import { $user } from '../../entities/session';
import { HttpError } from '../../shared/api';
import {
  $batchErrors,
  $batchForm,
  $batchFormMode,
  addBatchFx,
  batchAddOpened,
  batchDeleteConfirmed,
  batchDeleteRequested,
  batchEditOpened,
  batchFieldChanged,
  batchFormSubmitted,
  batchResult,
  checkBatchForm,
  deleteBatchFx,
  editBatchFx,
  EMPTY_BATCH_FORM,
} from './model';

const user = (access: string) =>
  ({
    id: 1,
    email: `${access}@demo.test`,
    role: access === 'client' ? 'client' : 'distributor',
    user_type: access,
    access,
  }) as unknown as CurrentUser;
const BATCH = {
  id: 5,
  batch_type: 1,
  batch_type_name: 'Sunscreen',
  batch_no: 'SPF-5',
  install_date: '2026-01-01',
  expire_date: '2027-01-01',
  batchVolume: 640,
} as BatchAnswer;

function setup(
  access = 'distributor',
  handlers: { add?: () => Promise<BatchAnswer>; edit?: () => Promise<BatchAnswer>; del?: () => Promise<number> } = {},
) {
  const calls: { add: unknown[]; edit: unknown[]; del: unknown[]; lists: number } = { add: [], edit: [], del: [], lists: 0 };
  const scope = fork({
    values: [[$user, user(access)]],
    handlers: [
      [
        addBatchFx,
        (input: unknown) => (
          calls.add.push(input),
          handlers.add ? handlers.add() : Promise.resolve({ ...BATCH, id: 9, batch_no: 'NEW-1' })
        ),
      ],
      [editBatchFx, (input: unknown) => (calls.edit.push(input), handlers.edit ? handlers.edit() : Promise.resolve(BATCH))],
      [deleteBatchFx, (id: number) => (calls.del.push(id), handlers.del ? handlers.del() : Promise.resolve(id))],
      [fetchBatchListFx, async () => (calls.lists++, [])],
      // The popup stays for the assertions.
      [batchResult.timerFx, async () => -1],
    ],
  });
  return { scope, calls };
}
const fill = async (scope: ReturnType<typeof fork>, values: Partial<typeof EMPTY_BATCH_FORM>) => {
  for (const [field, value] of Object.entries(values))
    await allSettled(batchFieldChanged, { scope, params: { field: field as keyof typeof EMPTY_BATCH_FORM, value } });
};

describe('ADD NEW BATCH / Edit Batch', () => {
  it('says Required under every empty field and sends nothing', async () => {
    const { scope, calls } = setup();
    await allSettled(batchAddOpened, { scope });
    await allSettled(batchFormSubmitted, { scope });
    expect(scope.getState($batchErrors)).toEqual({
      batchType: 'Required',
      batchNumber: 'Required',
      installDate: 'Required',
      expiryDate: 'Required',
      batchVolume: 'Required',
    });
    expect(calls.add).toEqual([]);
    // Editing a field takes its message away.
    await fill(scope, { batchNumber: 'X' });
    expect(scope.getState($batchErrors).batchNumber).toBeUndefined();
  });

  it('adds a batch (volume in fl.oz. as a number), shows BATCH ADDED, closes and re-reads the Batch List', async () => {
    const { scope, calls } = setup();
    await allSettled(batchAddOpened, { scope });
    await fill(scope, {
      batchType: '2',
      batchNumber: ' NEW-1 ',
      installDate: '2026-01-01',
      expiryDate: '2027-01-01',
      batchVolume: '12.5',
    });
    await allSettled(batchFormSubmitted, { scope });
    expect(calls.add).toEqual([
      { batchType: 2, batchNumber: 'NEW-1', installDate: '2026-01-01', expiryDate: '2027-01-01', batchVolume: 12.5 },
    ]);
    expect(scope.getState(batchResult.$result)).toMatchObject({ tone: 'success', title: 'BATCH ADDED' });
    expect(scope.getState($batchFormMode)).toBe('closed');
    expect(calls.lists).toBe(1);
  });

  it('puts a duplicate number under the field and shows FAIL TO ADD BATCH, keeping the form', async () => {
    const { scope } = setup('distributor', {
      add: () => Promise.reject(new HttpError(400, { batchNumber: ['already has batch number'] })),
    });
    await allSettled(batchAddOpened, { scope });
    await fill(scope, {
      batchType: '1',
      batchNumber: 'SPF-5',
      installDate: '2026-01-01',
      expiryDate: '2027-01-01',
      batchVolume: '10',
    });
    await allSettled(batchFormSubmitted, { scope });
    expect(scope.getState($batchErrors).batchNumber).toBe('already has batch number');
    expect(scope.getState(batchResult.$result)).toMatchObject({
      tone: 'danger',
      title: 'FAIL TO ADD BATCH',
      message: 'already has batch number',
    });
    expect(scope.getState($batchFormMode)).toBe('add');
  });

  it('edits with the type fixed, and checks the expiry comes after the install date', async () => {
    const { scope, calls } = setup();
    await allSettled(batchEditOpened, { scope, params: BATCH });
    expect(scope.getState($batchForm)).toEqual({
      batchType: '1',
      batchNumber: 'SPF-5',
      installDate: '2026-01-01',
      expiryDate: '2027-01-01',
      batchVolume: '640',
    });
    await fill(scope, { expiryDate: '2025-01-01' });
    await allSettled(batchFormSubmitted, { scope });
    expect(scope.getState($batchErrors).expiryDate).toBe('Expiry date must be after the install date.');
    await fill(scope, { expiryDate: '2028-01-01' });
    await allSettled(batchFormSubmitted, { scope });
    expect(calls.edit).toEqual([
      {
        id: 5,
        input: { batchType: 1, batchNumber: 'SPF-5', installDate: '2026-01-01', expiryDate: '2028-01-01', batchVolume: 640 },
      },
    ]);
    expect(scope.getState(batchResult.$result)?.title).toBe('BATCH EDITED');
  });

  it('deletes only after the question: BATCH DELETED, or FAIL TO DELETE BATCH with the server reason', async () => {
    const ok = setup();
    await allSettled(batchEditOpened, { scope: ok.scope, params: BATCH });
    await allSettled(batchDeleteConfirmed, { scope: ok.scope });
    expect(ok.calls.del).toEqual([]);
    await allSettled(batchDeleteRequested, { scope: ok.scope });
    await allSettled(batchDeleteConfirmed, { scope: ok.scope });
    expect(ok.calls.del).toEqual([5]);
    expect(ok.scope.getState(batchResult.$result)).toMatchObject({
      title: 'BATCH DELETED',
      message: 'Batch deleted successfully.',
    });
    expect(ok.scope.getState($batchFormMode)).toBe('closed');

    const failing = setup('distributor', {
      del: () => Promise.reject(new HttpError(400, { detail: 'Batch is in use by 2 devices.' })),
    });
    await allSettled(batchEditOpened, { scope: failing.scope, params: BATCH });
    await allSettled(batchDeleteRequested, { scope: failing.scope });
    await allSettled(batchDeleteConfirmed, { scope: failing.scope });
    expect(failing.scope.getState(batchResult.$result)).toMatchObject({
      tone: 'danger',
      title: 'FAIL TO DELETE BATCH',
      message: 'Failed to delete batch. Batch is in use by 2 devices.',
    });
  });

  it('does not open for a client', async () => {
    const { scope } = setup('client');
    await allSettled(batchAddOpened, { scope });
    expect(scope.getState($batchFormMode)).toBe('closed');
  });

  it('closes the popup after 2 s, never a later one', async () => {
    const timers: number[] = [];
    const timed = fork({
      values: [[$user, user('distributor')]],
      handlers: [
        [addBatchFx, () => Promise.reject(new HttpError(500, null))],
        [batchResult.timerFx, async (seq: number) => (timers.push(seq), seq)],
      ],
    });
    await allSettled(batchAddOpened, { scope: timed });
    await fill(timed, {
      batchType: '1',
      batchNumber: 'A',
      installDate: '2026-01-01',
      expiryDate: '2027-01-01',
      batchVolume: '1',
    });
    await allSettled(batchFormSubmitted, { scope: timed });
    expect(timers).toEqual([1]);
    expect(timed.getState(batchResult.$result)).toBeNull();
  });
});

describe('checkBatchForm', () => {
  it('reads the form as the API payload', () => {
    expect(
      checkBatchForm(
        {
          ...EMPTY_BATCH_FORM,
          batchType: '1',
          batchNumber: 'A',
          installDate: '2026-01-01',
          expiryDate: '2026-02-01',
          batchVolume: '0',
        },
        'add',
      ),
    ).toEqual({
      ok: false,
      errors: { batchVolume: 'Batch volume must be greater than 0.' },
    });
  });
});
