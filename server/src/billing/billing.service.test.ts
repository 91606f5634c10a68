import { describe, expect, it } from 'vitest';
import { lastDeactivatingDueDate } from '@fleet/shared';
import { ApiError } from '../lib/errors.ts';
import type { BillDeviceRow, BillingRepository, BillRow } from './billing.repository.ts';
import { billingService } from './billing.service.ts';
import { offlinePaymentProvider } from './payment-provider.ts';
import { signWebhook, verifyWebhookSignature } from './webhook-signature.ts';

/**
 * The billing service on an in-memory repository: the webhook's refusals, the overdue rule on an injected
 * clock, and re-activation on payment. The SQL runs in tests/integration/billing.test.ts on both backends.
 */
type User = { id: number; activated: boolean; reason: string | null };

function fakeRepo(seed: { users: User[]; devices: BillDeviceRow[] }) {
  const bills: (BillRow & { deviceIds: number[] })[] = [];
  const events = new Set<string>();
  const users = new Map(seed.users.map((u) => [u.id, { ...u }]));
  const holding = ['PENDING', 'OVERDUE', 'ACTIVE'];
  const open = ['PENDING', 'OVERDUE'];
  const repo: BillingRepository = {
    transaction: (fn) => fn(repo),
    lockBilling: async () => undefined,
    scopedDevices: async (_scope, serials) => seed.devices.filter((d) => !serials || serials.includes(d.serial)),
    devicesNotOnPlan: async (_scope, product) =>
      seed.devices.filter(
        (d) => !bills.some((b) => b.productName === product && holding.includes(b.status) && b.deviceIds.includes(d.id)),
      ),
    devicesOnPlan: async (product, ids) =>
      seed.devices.filter(
        (d) =>
          ids.includes(d.id) &&
          bills.some((b) => b.productName === product && holding.includes(b.status) && b.deviceIds.includes(d.id)),
      ),
    billByUid: async (uid) => bills.find((b) => b.billUid === uid),
    billDeviceIds: async (id) => bills.find((b) => b.id === id)!.deviceIds,
    async insertBill(values, deviceIds) {
      const row = {
        id: bills.length + 1,
        note: '',
        paymentType: 'SUBSCRIPTION',
        status: 'PENDING',
        dueDate: null,
        paidAt: null,
        createdAt: new Date(),
        provider: 'offline',
        paymentReference: null,
        paidBy: null,
        ...values,
        deviceIds,
      } as BillRow & { deviceIds: number[] };
      bills.push(row);
      return row;
    },
    listBills: async (filter) =>
      bills
        .filter((b) => (filter.id == null || b.id === filter.id) && (filter.viewer == null || b.userId === filter.viewer.payerId))
        .map((bill) => ({
          bill,
          serials: seed.devices.filter((d) => bill.deviceIds.includes(d.id)).map((d) => d.serial),
          payer: { id: bill.userId, email: `u${bill.userId}@t`, username: 'U', company: 'C' },
        })),
    async markPaid(id, paid) {
      const b = bills.find((x) => x.id === id && open.includes(x.status));
      if (b) Object.assign(b, { status: 'ACTIVE', paidAt: paid.at, paymentReference: paid.reference, paidBy: paid.paidBy });
      return b;
    },
    recordWebhookEvent: async (eventId) => (events.has(eventId) ? false : (events.add(eventId), true)),
    async markOverdue(today) {
      const due = bills.filter((b) => b.status === 'PENDING' && b.dueDate! < today);
      due.forEach((b) => (b.status = 'OVERDUE'));
      return due.length;
    },
    payersPastDeactivation: async (last) => [
      ...new Set(
        bills.filter((b) => open.includes(b.status) && b.dueDate! <= last && users.get(b.userId)!.activated).map((b) => b.userId),
      ),
    ],
    async deactivate(ids) {
      const changed = ids.filter((id) => users.get(id)!.activated);
      changed.forEach((id) => Object.assign(users.get(id)!, { activated: false, reason: 'overdue' }));
      return changed;
    },
    async reactivateIfClear(userId, last) {
      const u = users.get(userId)!;
      if (
        u.activated ||
        u.reason !== 'overdue' ||
        bills.some((b) => b.userId === userId && open.includes(b.status) && b.dueDate! <= last)
      )
        return false;
      Object.assign(u, { activated: true, reason: null });
      return true;
    },
  };
  return { repo, users, bills };
}

const SECRET = 'test-secret-'.repeat(3);
const DEVICES: BillDeviceRow[] = [1, 2, 3].map((id) => ({
  id,
  serial: `SP${id}`,
  label: `Site ${id}`,
  address: '',
  brandName: null,
}));

function setup(start = '2026-11-01T12:00:00Z') {
  let now = new Date(start);
  const ended: number[] = [];
  const fake = fakeRepo({ users: [{ id: 7, activated: true, reason: null }], devices: DEVICES });
  const service = billingService({
    repo: fake.repo,
    provider: offlinePaymentProvider({ webhookSecret: SECRET, dueDays: 14, toleranceSeconds: 300 }),
    now: () => now,
    endUserSessions: async (id) => void ended.push(id),
    log: () => undefined,
  });
  const client = { id: 7, access: 'client' as const, email: 'u7@t' };
  return { service, fake, ended, client, setNow: (iso: string) => (now = new Date(iso)) };
}

const checkout = {
  bill_uid: 'web-1',
  product_name: 'basic-plan',
  price_usd: 17,
  name: 'Basic Plan (Contract)',
  device_serial_list: ['SP1', 'SP2'],
  payment_type: 'SUBSCRIPTION',
};

async function refusal(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(err)}`);
  return err;
}

describe('webhook signature', () => {
  const body = Buffer.from('{"event_id":"e1"}');
  const now = new Date('2026-11-01T12:00:00Z');
  const ts = now.getTime() / 1000;
  const check = (over: Partial<Parameters<typeof verifyWebhookSignature>[0]>) =>
    verifyWebhookSignature({
      secret: SECRET,
      rawBody: body,
      timestampHeader: String(ts),
      signatureHeader: signWebhook(SECRET, ts, body),
      now,
      toleranceSeconds: 300,
      ...over,
    });

  it('accepts the HMAC-SHA256 of "<timestamp>.<body>" and refuses anything else', () => {
    expect(check({})).toEqual({ ok: true });
    expect(check({ signatureHeader: signWebhook('another-secret-of-some-length', ts, body) })).toEqual({
      ok: false,
      reason: 'forged',
    });
    expect(check({ rawBody: Buffer.from('{"event_id":"e2"}') })).toEqual({ ok: false, reason: 'forged' });
    // Re-dating a captured call breaks the signature: the timestamp is signed.
    expect(check({ timestampHeader: String(ts + 1) })).toEqual({ ok: false, reason: 'forged' });
    expect(check({ signatureHeader: undefined })).toEqual({ ok: false, reason: 'missing' });
    expect(check({ signatureHeader: 'md5=abc' })).toEqual({ ok: false, reason: 'malformed' });
    expect(check({ timestampHeader: 'yesterday' })).toEqual({ ok: false, reason: 'malformed' });
  });

  it('answers 503 to any call, even a correctly signed one, when no secret is configured (the production default)', async () => {
    const unconfigured = offlinePaymentProvider({ webhookSecret: undefined, dueDays: 14, toleranceSeconds: 300 });
    const headers: Record<string, string> = {
      'x-billing-timestamp': String(ts),
      'x-billing-signature': signWebhook(SECRET, ts, body),
    };
    const call = { rawBody: body, header: (n: string) => headers[n.toLowerCase()] };
    const direct = (() => {
      try {
        unconfigured.verifyWebhook(call, now);
      } catch (err) {
        return err;
      }
    })();
    expect(direct).toBeInstanceOf(ApiError);
    expect((direct as ApiError).status).toBe(503);
    expect((direct as ApiError).body).toEqual({ detail: 'The payment webhook is not configured (BILLING_WEBHOOK_SECRET).' });
    // Through the service: refused before any event is recorded or any bill touched.
    const { fake } = setup();
    const noSecret = billingService({
      repo: fake.repo,
      provider: unconfigured,
      now: () => now,
      endUserSessions: async () => undefined,
      log: () => undefined,
    });
    expect((await refusal(noSecret.webhook(call))).status).toBe(503);
    expect(fake.bills).toEqual([]);
  });

  it('refuses a timestamp beyond the tolerance, old or ahead', () => {
    const old = ts - 301;
    expect(check({ timestampHeader: String(old), signatureHeader: signWebhook(SECRET, old, body) })).toEqual({
      ok: false,
      reason: 'stale',
    });
    const ahead = ts + 301;
    expect(check({ timestampHeader: String(ahead), signatureHeader: signWebhook(SECRET, ahead, body) })).toEqual({
      ok: false,
      reason: 'stale',
    });
  });
});

describe('billing service', () => {
  it('issues a bill due BILLING_DUE_DAYS later; the same bill_uid again answers it, other content is refused', async () => {
    const { service, client } = setup();
    const first = await service.createBill(client, checkout);
    expect(first.created).toBe(true);
    expect(first.bill).toMatchObject({
      status: 'PENDING',
      due_date: '2026-11-15',
      deactivation_date: '2026-11-30',
      total_usd: 34,
      device_count: 2,
      price_usd: 17,
    });
    expect((await service.createBill(client, checkout)).created).toBe(false);
    expect((await refusal(service.createBill(client, { ...checkout, device_serial_list: ['SP3'] }))).body).toEqual({
      bill_uid: ['This bill_uid is already used by another bill.'],
    });
    // A device already on the plan (waiting for payment) cannot be billed again for it.
    expect(
      (await refusal(service.createBill(client, { ...checkout, bill_uid: 'web-2', device_serial_list: ['SP2', 'SP3'] }))).body,
    ).toEqual({
      device_serial_list: ['SP2 is already on Basic Plan (Contract) (active or waiting for payment).'],
    });
    expect(await service.unsubscriptionList(client, { product_name_list: ['basic-plan', 'support plan'] })).toEqual({
      'basic-plan': [expect.objectContaining({ serial: 'SP3' })],
      'support plan': DEVICES.map((d) => expect.objectContaining({ serial: d.serial })),
    });
  });

  it('refuses market partners, and mark-paid for anyone but a distributor', async () => {
    const { service, client } = setup();
    expect((await refusal(service.allBills({ id: 9, access: 'market-partner' }))).status).toBe(403);
    expect((await refusal(service.markPaid(client, { bill_uid: 'x' }))).status).toBe(403);
  });

  it('deactivates the payer on day 15 past the due date, not on day 14, and closes its sockets', async () => {
    const { service, client, setNow, fake, ended } = setup();
    await service.createBill(client, checkout); // due 2026-11-15
    setNow('2026-11-16T00:00:00Z');
    expect(await service.runOverdueCheck()).toEqual({ overdue: 1, deactivated: [] });
    setNow('2026-11-29T23:59:59Z'); // day 14
    expect((await service.runOverdueCheck()).deactivated).toEqual([]);
    expect(fake.users.get(7)!.activated).toBe(true);
    setNow('2026-11-30T00:00:00Z'); // day 15
    expect((await service.runOverdueCheck()).deactivated).toEqual([7]);
    expect(fake.users.get(7)).toMatchObject({ activated: false, reason: 'overdue' });
    expect(ended).toEqual([7]);
    // The next tick finds nobody new to deactivate.
    expect((await service.runOverdueCheck()).deactivated).toEqual([]);
    expect(lastDeactivatingDueDate('2026-11-30')).toBe('2026-11-15');
  });

  it('a signed webhook pays the bill and re-activates the payer; forged, stale and replayed calls are refused', async () => {
    const { service, client, setNow, fake } = setup();
    await service.createBill(client, checkout);
    setNow('2026-12-01T08:00:00Z');
    await service.runOverdueCheck();
    expect(fake.users.get(7)!.activated).toBe(false);

    const ts = Math.floor(new Date('2026-12-01T08:00:00Z').getTime() / 1000);
    const call = (body: string, over: { ts?: number; secret?: string } = {}) => {
      const t = over.ts ?? ts;
      const headers: Record<string, string> = {
        'x-billing-timestamp': String(t),
        'x-billing-signature': signWebhook(over.secret ?? SECRET, t, body),
      };
      return { rawBody: Buffer.from(body), header: (n: string) => headers[n.toLowerCase()] };
    };
    const paid = JSON.stringify({ event_id: 'evt-1', type: 'bill.paid', bill_uid: 'web-1', reference: 'bank 123' });

    const forged = await refusal(service.webhook(call(paid, { secret: 'not-the-secret-at-all-1234' })));
    expect(forged.status).toBe(401);
    expect((await refusal(service.webhook(call(paid, { ts: ts - 3600 })))).status).toBe(401);
    expect(fake.bills[0]!.status).toBe('OVERDUE');

    expect(await service.webhook(call(paid))).toEqual({ detail: 'Bill paid.', bill_uid: 'web-1', reactivated: true });
    expect(fake.bills[0]).toMatchObject({ status: 'ACTIVE', paymentReference: 'bank 123', paidBy: null });
    expect(fake.users.get(7)).toMatchObject({ activated: true, reason: null });

    const replay = await refusal(service.webhook(call(paid)));
    expect(replay.status).toBe(409);
    expect((await refusal(service.webhook(call('{"event_id":"evt-2","type":"refund"}')))).status).toBe(400);
  });

  it('keeps the payer deactivated while another bill is 15 days overdue', async () => {
    const { service, client, setNow, fake } = setup();
    await service.createBill(client, checkout);
    await service.createBill(client, {
      ...checkout,
      bill_uid: 'web-2',
      product_name: 'sim-card',
      price_usd: 5,
      name: 'Sim Card',
    });
    setNow('2026-12-01T08:00:00Z');
    await service.runOverdueCheck();
    const distributor = { id: 1, access: 'distributor' as const };
    expect((await service.markPaid(distributor, { bill_uid: 'web-1' })).reactivated).toBe(false);
    expect(fake.users.get(7)!.activated).toBe(false);
    const last = await service.markPaid(distributor, { bill_uid: 'web-2', reference: 'cheque 9' });
    expect(last.reactivated).toBe(true);
    expect(last.bill).toMatchObject({ status: 'ACTIVE', payment_reference: 'cheque 9', deactivation_date: null });
    expect((await refusal(service.markPaid(distributor, { bill_uid: 'web-2' }))).body).toEqual({
      detail: 'This bill is already paid.',
    });
  });
});
