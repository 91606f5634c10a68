import {
  BILLING_MESSAGES,
  billTotalUsd,
  createBillSchema,
  deactivationDay,
  lastDeactivatingDueDate,
  markBillPaidSchema,
  OPEN_BILL_STATUSES,
  planOf,
  unsubscriptionListSchema,
  type Bill,
  type BillStatus,
  type UnsubscriptionListAnswer,
} from '@fleet/shared';
import { deviceScope, type ScopeViewer } from '../access/scope.ts';
import { ApiError, isUniqueViolation, parse } from '../lib/errors.ts';
import type { BillDeviceRow, BillingRepository, BillRow, BillWithDetails } from './billing.repository.ts';
import type { PaymentProvider } from './payment-provider.ts';

/** The caller: its scope, and its email for the provider's invoice. */
export type BillingViewer = ScopeViewer & { email?: string };

export type BillingServiceDeps = {
  repo: BillingRepository;
  provider: PaymentProvider;
  now: () => Date;
  /** Closes every socket of a user at once (all processes): the realtime session ender. */
  endUserSessions: (userId: number) => Promise<void>;
  log: (msg: string, err?: unknown) => void;
};

/**
 * Who may bill (the spec is silent): a distributor bills devices of its fleet (every device) and sees and
 * settles every bill; a client bills only devices in its own scope (its brands) and sees only the bills
 * it pays; a market-partner account has no Subscriptions tab and gets 403. The payer of a bill is the
 * account that checked it out, and the overdue rule deactivates that account.
 */
const MARKET_PARTNER_REFUSED = 'Market-partner accounts have no subscriptions.';

/**
 * The overdue rule is stated once, in shared/src/rules/billing.ts: `lastDeactivatingDueDate(today)` is the
 * bound the repository's SQL compares due dates with (the same bound `deactivationDue` uses).
 */
const todayOf = (at: Date) => at.toISOString().slice(0, 10);

export function billingService(deps: BillingServiceDeps) {
  const { repo } = deps;

  function requireBiller(viewer: ScopeViewer) {
    if (viewer.access === 'market-partner') throw ApiError.forbidden(MARKET_PARTNER_REFUSED);
  }
  function requireDistributor(viewer: ScopeViewer) {
    if (viewer.access !== 'distributor') throw ApiError.forbidden('Only a distributor records payments.');
  }

  async function answerOf(tx: BillingRepository, id: number): Promise<Bill> {
    const [row] = await tx.listBills({ id });
    if (!row) throw ApiError.notFound(BILLING_MESSAGES.billNotFound);
    return toBillAnswer(row);
  }

  /**
   * Marks a bill paid and, when it was the payer's last bill past the overdue line, re-activates the
   * payer: in the same transaction, so a payment never leaves a paid-up account locked out.
   */
  async function settle(tx: BillingRepository, bill: BillRow, paid: { reference: string | null; paidBy: number | null }) {
    if (bill.status === 'ACTIVE') throw ApiError.badRequest(BILLING_MESSAGES.alreadyPaid);
    if (bill.status === 'CANCELLED') throw ApiError.badRequest(BILLING_MESSAGES.cancelled);
    const now = deps.now();
    await tx.markPaid(bill.id, { at: now, ...paid });
    const reactivated = await tx.reactivateIfClear(bill.userId, lastDeactivatingDueDate(todayOf(now)));
    return { bill: await answerOf(tx, bill.id), reactivated };
  }

  return {
    /**
     * POST /get_unsubscription_list: per product asked, the caller's placed devices that no bill of that
     * product holds yet (waiting for payment or paid), whoever pays it: a device is never billed twice for
     * one plan. Keyed by the product path as asked.
     */
    async unsubscriptionList(viewer: ScopeViewer, body: unknown): Promise<UnsubscriptionListAnswer> {
      requireBiller(viewer);
      const input = parse(unsubscriptionListSchema, body ?? {});
      const scope = deviceScope(viewer);
      const out: UnsubscriptionListAnswer = {};
      for (const asked of input.product_name_list) {
        const plan = planOf(asked)!;
        out[asked] = (await repo.devicesNotOnPlan(scope, plan.path)).map(toUnsubscribed);
      }
      return out;
    },

    /**
     * GET /get_all_bill, newest first: every bill for a distributor. A client gets the bills it pays and
     * the bills holding any of its devices (a distributor's plan covering its sites), the latter listing
     * only its own devices and priced for them: it sees what covers its devices, nothing of other fleets.
     */
    async allBills(viewer: ScopeViewer): Promise<Bill[]> {
      requireBiller(viewer);
      const rows = await repo.listBills(
        viewer.access === 'distributor' ? {} : { viewer: { payerId: viewer.id, scope: deviceScope(viewer) } },
      );
      return rows.map(toBillAnswer);
    },

    /**
     * POST /create_bill: issues a bill for devices of the caller's scope with the provider (due date).
     * The price and the name must be the catalogue's (the schema refuses others). Sending the same bill_uid again with the same content answers the
     * bill already issued (a retried checkout issues one bill); with other content it is refused.
     */
    async createBill(viewer: BillingViewer, body: unknown): Promise<{ bill: Bill; created: boolean }> {
      requireBiller(viewer);
      const input = parse(createBillSchema, body ?? {});
      const plan = planOf(input.product_name)!;
      const scope = deviceScope(viewer);
      try {
        return await repo.transaction(async (tx) => {
          await tx.lockBilling();
          const found = await tx.scopedDevices(scope, input.device_serial_list);
          const bySerial = new Map(found.map((d) => [d.serial, d]));
          // A serial outside the scope answers like an unknown one: the caller learns nothing about it.
          const unknown = input.device_serial_list.filter((s) => !bySerial.has(s));
          if (unknown.length) throw new ApiError(400, { device_serial_list: unknown.map(BILLING_MESSAGES.unknownDevice) });
          const deviceIds = input.device_serial_list.map((s) => bySerial.get(s)!.id);

          const existing = await tx.billByUid(input.bill_uid, { lock: true });
          if (existing) {
            const same =
              existing.userId === viewer.id &&
              existing.productName === plan.path &&
              sameSet(await tx.billDeviceIds(existing.id), deviceIds);
            if (!same) throw ApiError.field('bill_uid', BILLING_MESSAGES.billUidTaken);
            return { bill: await answerOf(tx, existing.id), created: false };
          }

          const held = await tx.devicesOnPlan(plan.path, deviceIds);
          if (held.length)
            throw new ApiError(400, { device_serial_list: held.map((d) => BILLING_MESSAGES.alreadyOnPlan(d.serial, plan.name)) });

          const issuedAt = deps.now();
          const totalUsd = billTotalUsd(plan, deviceIds.length);
          const issued = await deps.provider.issue({
            billUid: input.bill_uid,
            totalUsd,
            payerEmail: viewer.email ?? '',
            issuedAt,
          });
          const row = await tx.insertBill(
            {
              userId: viewer.id,
              billUid: input.bill_uid,
              productName: plan.path,
              priceUsd: plan.priceUsd!,
              // The catalogue's name (the schema refused any other; this drops a sender's case or blanks).
              name: plan.name,
              note: input.note,
              paymentType: input.payment_type,
              status: 'PENDING',
              dueDate: issued.dueDate,
              provider: deps.provider.name,
              paymentReference: issued.reference,
              createdAt: issuedAt,
            },
            deviceIds,
          );
          return { bill: await answerOf(tx, row.id), created: true };
        });
      } catch (err) {
        // Two first sends of one bill_uid at once: the loser hears what a second send hears.
        if (isUniqueViolation(err)) throw ApiError.field('bill_uid', BILLING_MESSAGES.billUidTaken);
        throw err;
      }
    },

    /** POST /mark_bill_paid: a distributor records a payment received outside the portal. */
    async markPaid(viewer: ScopeViewer, body: unknown): Promise<{ bill: Bill; reactivated: boolean }> {
      requireDistributor(viewer);
      const input = parse(markBillPaidSchema, body ?? {});
      return repo.transaction(async (tx) => {
        await tx.lockBilling();
        const bill = await tx.billByUid(input.bill_uid, { lock: true });
        if (!bill) throw ApiError.notFound(BILLING_MESSAGES.billNotFound);
        return settle(tx, bill, { reference: input.reference || null, paidBy: viewer.id });
      });
    },

    /**
     * POST /api/billing/webhook: the provider's signed `bill.paid`. Forged or stale calls are refused by
     * the provider check (401); an event id already handled is refused (409) and changes nothing. The
     * event id is recorded in the same transaction as the payment, so a failed payment can be re-sent.
     */
    async webhook(call: {
      rawBody: Buffer;
      header(name: string): string | undefined;
    }): Promise<{ detail: string; bill_uid: string; reactivated: boolean }> {
      const event = deps.provider.verifyWebhook(call, deps.now());
      return repo.transaction(async (tx) => {
        await tx.lockBilling();
        if (!(await tx.recordWebhookEvent(event.event_id, deps.provider.name, event.bill_uid))) {
          throw new ApiError(409, { detail: 'This event was already processed.', code: 'replayed_event' });
        }
        const bill = await tx.billByUid(event.bill_uid, { lock: true });
        if (!bill) throw ApiError.notFound(BILLING_MESSAGES.billNotFound);
        // A provider may report a payment twice under two event ids: the second is acknowledged, not an error.
        if (bill.status === 'ACTIVE') return { detail: 'Bill already paid.', bill_uid: bill.billUid, reactivated: false };
        const { reactivated } = await settle(tx, bill, { reference: event.reference || null, paidBy: null });
        return { detail: 'Bill paid.', bill_uid: bill.billUid, reactivated };
      });
    },

    /**
     * The overdue rule, one run: PENDING bills past their due date become OVERDUE; the payer of any open
     * bill 15 or more days past its due date is deactivated (users.activated false, reason 'overdue'),
     * after which every API call answers 403; the payer's sockets are closed at once.
     */
    async runOverdueCheck(): Promise<{ overdue: number; deactivated: number[] }> {
      const today = todayOf(deps.now());
      const { overdue, deactivated } = await repo.transaction(async (tx) => {
        // The lock payments take too: a payment landing while the check runs either comes first (its bill no
        // longer counts) or after (it re-activates the account the check has just deactivated), never between.
        await tx.lockBilling();
        const overdue = await tx.markOverdue(today);
        const payers = await tx.payersPastDeactivation(lastDeactivatingDueDate(today));
        return { overdue, deactivated: await tx.deactivate(payers) };
      });
      for (const userId of deactivated) {
        await deps.endUserSessions(userId).catch((err) => deps.log(`billing: sockets of user ${userId} not closed`, err));
      }
      return { overdue, deactivated };
    },
  };
}

function sameSet(a: number[], b: number[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((x) => set.has(x));
}

function toUnsubscribed(d: BillDeviceRow) {
  return { serial: d.serial, label: d.label, address: d.address, brand_name: d.brandName };
}

/** A bill as the billing calls answer it (shared billSchema). */
export function toBillAnswer({ bill, serials, payer }: BillWithDetails): Bill {
  const plan = planOf(bill.productName);
  const pricing = plan?.pricing ?? 'per-device';
  return {
    id: bill.id,
    bill_uid: bill.billUid,
    product_name: bill.productName,
    name: bill.name,
    price_usd: bill.priceUsd,
    pricing,
    total_usd: billTotalUsd({ priceUsd: bill.priceUsd, pricing }, serials.length),
    device_count: serials.length,
    device_serial_list: serials,
    note: bill.note,
    payment_type: 'SUBSCRIPTION',
    status: bill.status as BillStatus,
    due_date: bill.dueDate,
    deactivation_date:
      bill.dueDate && (OPEN_BILL_STATUSES as readonly string[]).includes(bill.status) ? deactivationDay(bill.dueDate) : null,
    created_at: bill.createdAt.toISOString(),
    paid_at: bill.paidAt?.toISOString() ?? null,
    provider: bill.provider,
    payment_reference: bill.paymentReference,
    payer: { id: payer.id, email: payer.email, name: payer.username, company: payer.company },
  };
}
