import { z } from 'zod';
import {
  billSchema,
  createBillSchema,
  markBillPaidSchema,
  paymentWebhookEventSchema,
  unsubscriptionListAnswerSchema,
  unsubscriptionListSchema,
} from '../schemas/billing.schema.ts';
import { endpoint } from './endpoint.ts';

const tag = 'Billing';
const detail = z.object({ detail: z.string() });
const who = 'Distributors (every device, every bill) and clients (devices of their brands); market partners get 403.';

/** The billing calls: plans not yet bought, bills, check-out, payments and the provider's webhook. */
export const billingApi = {
  getUnsubscriptionList: endpoint({
    method: 'post',
    path: '/api/v1/get_unsubscription_list',
    tag,
    summary: 'Devices not yet on a plan, per product path asked (basic-plan, sim-card, maintenance, support plan, ...)',
    description: `${who} Placed devices of the caller's scope that no bill of the product holds (waiting for payment or paid, whoever pays it). The answer is keyed by the product path as sent.`,
    body: unsubscriptionListSchema,
    responses: { 200: { description: 'Device lists by product path', schema: unsubscriptionListAnswerSchema } },
  }),
  getAllBill: endpoint({
    method: 'get',
    path: '/api/v1/get_all_bill',
    tag,
    summary:
      'Bills: every bill for a distributor; for a client the bills it pays and those holding its devices (listing only its devices); newest first',
    description: `${who} status PENDING (issued), OVERDUE (past its due date), ACTIVE (paid: the subscription is in force), CANCELLED. deactivation_date is when an unpaid bill deactivates its payer (due date + 15 days).`,
    responses: { 200: { description: 'Bills', schema: z.array(billSchema) } },
  }),
  createBill: endpoint({
    method: 'post',
    path: '/api/v1/create_bill',
    tag,
    summary: 'Check out: issue a SUBSCRIPTION bill for devices of the caller, due after BILLING_DUE_DAYS',
    description: `${who} price_usd must be the catalogue price (per device per month; 8x7 support is flat) and name the catalogue name of the product (case and blanks aside; the catalogue's spelling is stored); a device already on the plan, or outside the caller's scope, is refused with a field message. The same bill_uid with the same content answers the bill already issued (200); with other content, 400.`,
    body: createBillSchema,
    responses: {
      201: { description: 'The bill issued (PENDING, with its due date)', schema: billSchema },
      200: { description: 'The same bill_uid sent again', schema: billSchema },
    },
  }),
  markBillPaid: endpoint({
    method: 'post',
    path: '/api/v1/mark_bill_paid',
    tag,
    summary: 'Record a payment received outside the portal (distributors only)',
    description:
      "Marks the bill ACTIVE; when it was the payer's last bill 15 or more days overdue, the payer is re-activated in the same transaction (reactivated: true).",
    body: markBillPaidSchema,
    responses: {
      200: { description: 'The paid bill', schema: z.object({ bill: billSchema, reactivated: z.boolean() }) },
      404: { description: 'No bill with this bill_uid', schema: detail },
    },
  }),
  webhook: endpoint({
    method: 'post',
    path: '/api/billing/webhook',
    tag,
    auth: 'none',
    summary: "The payment provider's signed webhook: a bill.paid event",
    description:
      'Headers X-Billing-Timestamp (unix seconds) and X-Billing-Signature: sha256=<hex HMAC-SHA256(BILLING_WEBHOOK_SECRET, "<timestamp>.<raw body>")>. A missing, forged or stale (beyond BILLING_WEBHOOK_TOLERANCE_SECONDS) signature answers 401; an event_id already processed answers 409 and changes nothing; 503 when no secret is configured.',
    body: paymentWebhookEventSchema,
    responses: {
      200: {
        description: 'Bill paid (or already paid)',
        schema: z.object({ detail: z.string(), bill_uid: z.string(), reactivated: z.boolean() }),
      },
      401: { description: 'Missing, forged or stale signature', schema: detail },
      404: { description: 'No bill with this bill_uid', schema: detail },
      409: { description: 'Event already processed (replay)', schema: detail },
      503: { description: 'No webhook secret configured', schema: detail },
    },
  }),
};
