import type { Bill, CreateBillInput } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { sessionEnded } from '../../entities/session';
import { HttpError } from '../../shared/api';
import { activeSubscriptions, deactivationNote, pendingBills, summaryLines } from './lib/subscriptions-lib';
import {
  $activeSubscriptions,
  $canCheckout,
  $checkout,
  $editing,
  $pendingBills,
  $selection,
  $summaryTotal,
  checkoutClicked,
  createBillFx,
  deviceToggled,
  editClicked,
  fetchBillsFx,
  fetchUnsubscribedFx,
  markPaidClicked,
  markPaidFx,
  planAllToggled,
  saveClicked,
  subscriptionsOpened,
} from './model';

const bill = (over: Partial<Bill>): Bill =>
  ({
    id: 1,
    bill_uid: 'b1',
    product_name: 'basic-plan',
    name: 'Basic Plan (Contract)',
    price_usd: 17,
    pricing: 'per-device',
    total_usd: 17,
    device_count: 1,
    device_serial_list: ['A'],
    note: '',
    payment_type: 'SUBSCRIPTION',
    status: 'ACTIVE',
    due_date: '2026-12-01',
    deactivation_date: null,
    created_at: '2026-11-17T00:00:00Z',
    paid_at: null,
    provider: 'offline',
    payment_reference: null,
    payer: { id: 1, email: 'd@t', name: 'D', company: 'C' },
    ...over,
  }) as Bill;

const BILLS = [
  bill({ id: 1, device_serial_list: ['A', 'B'] }),
  bill({ id: 2, bill_uid: 'b2', device_serial_list: ['B', 'C'] }),
  bill({ id: 3, bill_uid: 'b3', product_name: 'sim-card', name: 'Sim Card', device_serial_list: ['A'] }),
  bill({ id: 4, bill_uid: 'b4', product_name: 'maintenance', name: 'Maintenance', status: 'PENDING', due_date: '2026-12-20' }),
  bill({ id: 5, bill_uid: 'b5', product_name: 'maintenance', name: 'Maintenance', status: 'OVERDUE', due_date: '2026-12-24' }),
];
const dev = (serial: string) => ({ serial, label: `Site ${serial}`, address: '', brand_name: null });
const OFFERED = {
  'basic-plan': [dev('X'), dev('Y')],
  'support-plan': [dev('X'), dev('Y'), dev('Z')],
  'sim-card': [],
  maintenance: [],
  'vandalism-deactivation': [],
  'ble-tracking': [],
};

describe('subscriptions lib', () => {
  it('groups paid bills per plan (a device once), lists open bills overdue first, sums a checkout', () => {
    expect(activeSubscriptions(BILLS).map((s) => [s.name, s.deviceCount])).toEqual([
      ['Basic Plan (Contract)', 3],
      ['Sim Card', 1],
    ]);
    expect(pendingBills(BILLS).map((b) => b.id)).toEqual([5, 4]);
    expect(summaryLines({ 'basic-plan': ['X', 'Y'], 'support-plan': ['X'] }).map((l) => l.totalUsd)).toEqual([34, 1980]);
    expect(deactivationNote({ status: 'OVERDUE', deactivation_date: '2026-12-16' }, '2026-12-15')).toEqual({
      since: false,
      day: '2026-12-16',
    });
    expect(deactivationNote({ status: 'OVERDUE', deactivation_date: '2026-12-16' }, '2026-12-16')).toEqual({
      since: true,
      day: '2026-12-16',
    });
    expect(deactivationNote({ status: 'PENDING', deactivation_date: '2026-12-16' }, '2026-12-20')).toBeNull();
  });
});

describe('Subscriptions tab', () => {
  const setup = (
    create: (body: CreateBillInput) => Promise<Bill> = async (b) =>
      bill({ bill_uid: b.bill_uid, status: 'PENDING', due_date: '2026-12-07' }),
  ) => {
    const calls = { bills: 0, offered: 0, created: [] as CreateBillInput[] };
    const scope = fork({
      handlers: [
        [fetchBillsFx, async () => (calls.bills++, BILLS)],
        [fetchUnsubscribedFx, async () => (calls.offered++, OFFERED)],
        [createBillFx, async (body: CreateBillInput) => (calls.created.push(body), create(body))],
        [markPaidFx, async (uid: string) => ({ bill: bill({ bill_uid: uid }), reactivated: false })],
      ],
    });
    return { scope, calls };
  };

  it('reads the bills when opened; Edit reads the devices not on a plan; Save returns to read-only keeping the choice', async () => {
    const { scope, calls } = setup();
    await allSettled(subscriptionsOpened, { scope });
    expect(scope.getState($activeSubscriptions)).toHaveLength(2);
    expect(scope.getState($pendingBills).map((b) => b.status)).toEqual(['OVERDUE', 'PENDING']);
    expect(calls.offered).toBe(0);
    await allSettled(editClicked, { scope });
    expect(scope.getState($editing)).toBe(true);
    expect(calls.offered).toBe(1);
    await allSettled(deviceToggled, { scope, params: { path: 'basic-plan', serial: 'Y' } });
    await allSettled(planAllToggled, { scope, params: 'support-plan' });
    expect(scope.getState($selection)).toEqual({ 'basic-plan': ['Y'], 'support-plan': ['X', 'Y', 'Z'] });
    expect(scope.getState($summaryTotal)).toBe(17 + 1980);
    await allSettled(saveClicked, { scope });
    expect(scope.getState($editing)).toBe(false);
    expect(scope.getState($canCheckout)).toBe(true);
  });

  it('checks out one bill per plan at catalogue prices, then clears the choice and reads both lists again', async () => {
    const { scope, calls } = setup();
    await allSettled(editClicked, { scope });
    await allSettled(deviceToggled, { scope, params: { path: 'basic-plan', serial: 'X' } });
    await allSettled(deviceToggled, { scope, params: { path: 'support-plan', serial: 'Z' } });
    await allSettled(checkoutClicked, { scope });
    expect(calls.created.map((c) => [c.product_name, c.price_usd, c.device_serial_list])).toEqual([
      ['basic-plan', 17, ['X']],
      ['support-plan', 1980, ['Z']],
    ]);
    expect(calls.created[0]!.bill_uid.replace(/-basic-plan$/, '')).toBe(calls.created[1]!.bill_uid.replace(/-support-plan$/, ''));
    expect(scope.getState($checkout)).toMatchObject({
      status: 'done',
      issued: [{ due_date: '2026-12-07' }, { due_date: '2026-12-07' }],
    });
    expect(scope.getState($selection)).toEqual({});
    expect(scope.getState($editing)).toBe(false);
    expect(calls.bills).toBe(1);
    expect(calls.offered).toBe(2);
  });

  it('a failed checkout says why and a retry re-sends the same bill_uids', async () => {
    let fail = true;
    const { scope, calls } = setup(async (b) => {
      if (fail)
        throw new HttpError(400, {
          device_serial_list: ['X is already on Basic Plan (Contract) (active or waiting for payment).'],
        });
      return bill({ bill_uid: b.bill_uid, status: 'PENDING' });
    });
    await allSettled(editClicked, { scope });
    await allSettled(deviceToggled, { scope, params: { path: 'basic-plan', serial: 'X' } });
    await allSettled(checkoutClicked, { scope });
    expect(scope.getState($checkout)).toMatchObject({
      status: 'failed',
      message: 'X is already on Basic Plan (Contract) (active or waiting for payment).',
    });
    expect(scope.getState($selection)).toEqual({ 'basic-plan': ['X'] });
    fail = false;
    await allSettled(checkoutClicked, { scope });
    expect(calls.created[1]!.bill_uid).toBe(calls.created[0]!.bill_uid);
    expect(scope.getState($checkout).status).toBe('done');
  });

  it('Mark paid records the payment and reads the bills again; sign-out forgets everything', async () => {
    const { scope, calls } = setup();
    await allSettled(subscriptionsOpened, { scope });
    await allSettled(markPaidClicked, { scope, params: 'b4' });
    expect(calls.bills).toBe(2);
    await allSettled(sessionEnded, { scope, params: 'logout' });
    expect(scope.getState($pendingBills)).toEqual([]);
    expect(scope.getState($selection)).toEqual({});
  });
});
