import type { BatchAnswer, RecallBatchAnswer, ResumeBatchAnswer } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { fetchBatchListFx } from '../../entities/batch';
import { fetchDevicesFx } from '../../entities/device';
import { fakeDevice } from '../../entities/device/lib/fake-device';
import { HttpError } from '../../shared/api';
import {
  $affectedDevices,
  $affectedHasMore,
  $affectedTotal,
  affectedMoreRequested,
  affectedPages,
  $recallQuestion,
  pauseDevicesToggled,
  recallBatchFx,
  recallConfirmed,
  recallRequested,
  recallResult,
  resumeBatchFx,
  resumeConfirmed,
  resumeRequested,
} from './model';

const BATCH = { id: 4, batch_no: 'SPF-4' } as BatchAnswer;
const answer = (fields: Partial<RecallBatchAnswer> = {}) =>
  ({
    detail: 'Recall batch success!',
    batch: BATCH,
    devices: [{ serial: 'A1', label: 'Pier', address: 'x', is_pause: true, pumps: [1] }],
    paused: 1,
    already_recalled: false,
    notified: [{ email: 'c@x.test', name: 'C', company: 'Acme', devices: 1 }],
    ...fields,
  }) as RecallBatchAnswer;

/** The server's devicePage for `batch` (its rule is tests/integration/device-page's): two pages of one device. */
const FED = [fakeDevice('A1', { batch: 4 }), fakeDevice('B2', { batch: 1, batch2Number: 'spf-4' })];

function setup(fail = false) {
  const calls: unknown[] = [];
  const pages: unknown[] = [];
  let lists = 0;
  let wholeLists = 0;
  const scope = fork({
    handlers: [
      [
        affectedPages.fetchPageFx,
        async (read: { filter: unknown; cursor: string | null }) => {
          pages.push(read);
          const at = read.cursor === null ? 0 : 1;
          return { items: [FED[at]], nextCursor: at === 0 ? 'next' : null, total: FED.length };
        },
      ],
      [fetchDevicesFx, async () => (wholeLists++, [])],
      [
        recallBatchFx,
        async (p: unknown) => {
          calls.push(['recall', p]);
          if (fail) throw new HttpError(500, null);
          return answer();
        },
      ],
      [
        resumeBatchFx,
        async (id: number) =>
          (calls.push(['resume', id]),
          {
            detail: 'Resume batch success!',
            batch: BATCH,
            devices: [],
            still_paused: 0,
            note: 'No device fed by this batch is paused.',
          }) as ResumeBatchAnswer,
      ],
      [fetchBatchListFx, async () => (lists++, [])],
    ],
  });
  return { scope, calls, pages, lists: () => lists, wholeLists: () => wholeLists };
}

describe('recall and resume', () => {
  it('asks first, listing the devices the batch feeds; recalls with the pause choice; the modal says what happened', async () => {
    const { scope, calls, pages, lists, wholeLists } = setup();
    await allSettled(recallConfirmed, { scope });
    expect(calls).toEqual([]);
    await allSettled(recallRequested, { scope, params: BATCH });
    // The server lists them by the batch's number, a page at a time; the count is its total.
    expect(pages).toEqual([{ filter: { batch: 'SPF-4' }, cursor: null, limit: 100 }]);
    expect(scope.getState($affectedDevices).map((d) => d.serial)).toEqual(['A1']);
    expect(scope.getState($affectedTotal)).toBe(2);
    expect(scope.getState($affectedHasMore)).toBe(true);
    await allSettled(affectedMoreRequested, { scope });
    expect(scope.getState($affectedDevices).map((d) => d.serial)).toEqual(['A1', 'B2']);
    expect(scope.getState($affectedHasMore)).toBe(false);
    // The whole device list is never read for it.
    expect(wholeLists()).toBe(0);
    await allSettled(pauseDevicesToggled, { scope, params: true });
    await allSettled(recallConfirmed, { scope });
    expect(calls).toEqual([['recall', { id: 4, pauseDevices: true }]]);
    expect(scope.getState($recallQuestion)).toBeNull();
    expect(scope.getState($affectedDevices)).toEqual([]);
    expect(scope.getState(recallResult.$result)).toMatchObject({
      title: 'Recall batch success!',
      message: 'BATCH SPF-4 is recalled; 1 device warns on the map. 1 paused now. Notice queued for 1 client company.',
    });
    expect(lists()).toBe(1);
  });

  it('a new recall never pauses unless asked', async () => {
    const { scope, calls } = setup();
    await allSettled(recallRequested, { scope, params: BATCH });
    await allSettled(recallConfirmed, { scope });
    expect(calls).toEqual([['recall', { id: 4, pauseDevices: false }]]);
  });

  it('a failed recall says so', async () => {
    const { scope } = setup(true);
    await allSettled(recallRequested, { scope, params: BATCH });
    await allSettled(recallConfirmed, { scope });
    expect(scope.getState(recallResult.$result)).toMatchObject({ tone: 'danger', title: 'FAIL TO RECALL BATCH' });
  });

  it('resumes after its own question', async () => {
    const { scope, calls, pages } = setup();
    await allSettled(resumeRequested, { scope, params: BATCH });
    expect(pages).toEqual([{ filter: { batch: 'SPF-4' }, cursor: null, limit: 100 }]);
    await allSettled(recallConfirmed, { scope });
    await allSettled(resumeConfirmed, { scope });
    expect(calls).toEqual([['resume', 4]]);
    expect(scope.getState(recallResult.$result)).toMatchObject({
      title: 'Resume batch success!',
      message: 'No device fed by this batch is paused.',
    });
  });
});
