import { billingApi } from '@fleet/shared';
import type { Bill, CreateBillInput, UnsubscribedDevice, UnsubscriptionListAnswer } from '@fleet/shared';
import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { $accessLevel, sessionEnded } from '../../entities/session';
import { call, createApiFx, failureMessage } from '../../shared/api';
import {
  activeSubscriptions,
  CHECKOUT_PLANS,
  pendingBills,
  pruneSelection,
  summaryLines,
  summaryTotal,
  toggleSerial,
  type Selection,
} from './lib/subscriptions-lib';

/**
 * The SUBSCRIPTIONS tab (spec sections 2 and 4): 'Manage your Subscriptions' reads GET /get_all_bill when
 * it opens. Edit switches to editing, where each priced plan offers the caller's devices not yet on it
 * (POST /get_unsubscription_list); chosen devices make the summary. Save returns to read-only and keeps
 * the choice; Check out issues one bill per plan (POST /create_bill), pending with a due date. A
 * distributor records a payment with Mark paid (POST /mark_bill_paid).
 *
 * The checkout has one id until it succeeds, and each plan's bill_uid is derived from it: a retry after a
 * failure (or a lost answer) re-sends the same bill_uids, and the server answers the bills already issued
 * instead of issuing them twice.
 */
export type LoadStatus = 'idle' | 'loading' | 'ready' | 'failed';
export type CheckoutState = { status: 'idle' | 'pending' | 'done' | 'failed'; message: string | null; issued: Bill[] };

export const subscriptionsOpened = createEvent();
export const subscriptionsRetried = createEvent();
export const editClicked = createEvent();
export const saveClicked = createEvent();
export const planToggled = createEvent<string>();
export const deviceToggled = createEvent<{ path: string; serial: string }>();
export const planAllToggled = createEvent<string>();
export const checkoutClicked = createEvent();
export const checkoutDismissed = createEvent();
export const markPaidClicked = createEvent<string>();

const newCheckoutId = () => `web-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export const fetchBillsFx = createApiFx<void, Bill[]>(() => call(billingApi.getAllBill));
export const fetchUnsubscribedFx = createApiFx<void, UnsubscriptionListAnswer>(() =>
  call(billingApi.getUnsubscriptionList, {
    body: { product_name_list: CHECKOUT_PLANS.map((p) => p.path) },
  }),
);
export const createBillFx = createApiFx<CreateBillInput, Bill>((body) => call(billingApi.createBill, { body }));
export const markPaidFx = createApiFx<string, { bill: Bill; reactivated: boolean }>((billUid) =>
  call(billingApi.markBillPaid, { body: { bill_uid: billUid } }),
);

/** Issues the summary's bills one after the other; stops at the first refusal (the retry re-sends all: bill_uids repeat). */
export const checkoutFx = createEffect(async ({ id, selection }: { id: string; selection: Selection }): Promise<Bill[]> => {
  const issued: Bill[] = [];
  for (const line of summaryLines(selection)) {
    issued.push(
      await createBillFx({
        bill_uid: `${id}-${line.plan.path}`,
        product_name: line.plan.path,
        price_usd: line.plan.priceUsd!,
        name: line.plan.name,
        device_serial_list: line.serials,
        note: '',
        payment_type: 'SUBSCRIPTION',
      }),
    );
  }
  return issued;
});

export const $bills = createStore<Bill[]>([]).reset(sessionEnded);
export const $billsStatus = createStore<LoadStatus>('idle').reset(sessionEnded);
export const $unsubscribed = createStore<Record<string, UnsubscribedDevice[]>>({}).reset(sessionEnded);
export const $unsubscribedStatus = createStore<LoadStatus>('idle').reset(sessionEnded);
export const $editing = createStore(false).reset(sessionEnded);
export const $openPlan = createStore<string | null>(null).reset(sessionEnded);
export const $selection = createStore<Selection>({}).reset(sessionEnded);
export const $checkoutId = createStore(newCheckoutId()).reset(sessionEnded);
export const $checkout = createStore<CheckoutState>({ status: 'idle', message: null, issued: [] }).reset(sessionEnded);
export const $markPaidPending = createStore<string | null>(null).reset(sessionEnded);
export const $markPaidError = createStore<{ billUid: string; message: string } | null>(null).reset(sessionEnded);

export const $canMarkPaid = $accessLevel.map((level) => level === 'distributor');
export const $activeSubscriptions = $bills.map(activeSubscriptions);
export const $pendingBills = $bills.map(pendingBills);
export const $summary = $selection.map(summaryLines);
export const $summaryTotal = $summary.map(summaryTotal);
export const $canCheckout = combine(
  $summary,
  $checkout,
  (lines, checkout) => lines.length > 0 && lines.every((l) => !l.tooMany) && checkout.status !== 'pending',
);

$bills.on(fetchBillsFx.doneData, (_, bills) => bills);
$billsStatus
  .on(fetchBillsFx, (s) => (s === 'ready' ? s : 'loading'))
  .on(fetchBillsFx.done, () => 'ready')
  .on(fetchBillsFx.fail, (s) => (s === 'ready' ? s : 'failed'));
$unsubscribed.on(fetchUnsubscribedFx.doneData, (_, answer) => answer);
$unsubscribedStatus
  .on(fetchUnsubscribedFx, (s) => (s === 'ready' ? s : 'loading'))
  .on(fetchUnsubscribedFx.done, () => 'ready')
  .on(fetchUnsubscribedFx.fail, (s) => (s === 'ready' ? s : 'failed'));

$editing.on(editClicked, () => true).on(saveClicked, () => false);
$openPlan.on(planToggled, (open, path) => (open === path ? null : path)).reset(saveClicked);

sample({ clock: [subscriptionsOpened, subscriptionsRetried], fn: () => undefined, target: fetchBillsFx });
sample({
  clock: [editClicked, subscriptionsRetried],
  source: $editing,
  filter: Boolean,
  fn: () => undefined,
  target: fetchUnsubscribedFx,
});

sample({
  clock: deviceToggled,
  source: { selection: $selection, offered: $unsubscribed },
  fn: ({ selection, offered }, { path, serial }) => toggleSerial(selection, path, serial, offered[path] ?? []),
  target: $selection,
});
sample({
  clock: planAllToggled,
  source: { selection: $selection, offered: $unsubscribed },
  fn: ({ selection, offered }, path) => {
    const all = (offered[path] ?? []).map((d) => d.serial);
    return { ...selection, [path]: (selection[path]?.length ?? 0) === all.length ? [] : all };
  },
  target: $selection,
});
// A refreshed list drops devices someone else has billed meanwhile.
sample({
  clock: fetchUnsubscribedFx.doneData,
  source: $selection,
  fn: (selection, offered) => pruneSelection(selection, offered),
  target: $selection,
});

sample({
  clock: checkoutClicked,
  source: { id: $checkoutId, selection: $selection, ok: $canCheckout },
  filter: ({ ok }) => ok,
  fn: ({ id, selection }) => ({ id, selection }),
  target: checkoutFx,
});
$checkout
  .on(checkoutFx, () => ({ status: 'pending', message: null, issued: [] }))
  .on(checkoutFx.doneData, (_, issued) => ({ status: 'done', message: null, issued }))
  .on(checkoutFx.failData, (_, error) => ({ status: 'failed', message: failureMessage(error), issued: [] }))
  .on(checkoutDismissed, () => ({ status: 'idle', message: null, issued: [] }));
// Done: the choice is billed, the next checkout is a new one, and both lists are read again.
$selection.reset(checkoutFx.done);
$checkoutId.on(checkoutFx.done, () => newCheckoutId());
$editing.reset(checkoutFx.done);
sample({ clock: checkoutFx.finally, fn: () => undefined, target: [fetchBillsFx, fetchUnsubscribedFx] });

sample({ clock: markPaidClicked, target: markPaidFx });
$markPaidPending.on(markPaidFx, (_, uid) => uid).reset(markPaidFx.finally);
$markPaidError
  .on(markPaidFx, () => null)
  .on(markPaidFx.fail, (_, { params, error }) => ({ billUid: params, message: failureMessage(error) }));
sample({ clock: markPaidFx.done, fn: () => undefined, target: fetchBillsFx });
