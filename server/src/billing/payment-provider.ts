import { paymentWebhookEventSchema, type PaymentWebhookEvent } from '@fleet/shared';
import { ApiError, parse } from '../lib/errors.ts';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyWebhookSignature } from './webhook-signature.ts';

/**
 * The payment-provider boundary: everything billing needs from whoever collects the money. The spec's
 * product called a payment storefront's subscription API from the browser with embedded credentials;
 * here the browser never talks to a provider, and a provider's credentials live only in configuration.
 * A real provider (hosted invoices, card checkout) implements the same two calls.
 */
export interface PaymentProvider {
  /** Stored on each bill it issues. */
  readonly name: string;
  /** Issues a bill: answers its due date ('YYYY-MM-DD') and the provider's reference, if any. */
  issue(bill: {
    billUid: string;
    totalUsd: number;
    payerEmail: string;
    issuedAt: Date;
  }): Promise<{ dueDate: string; reference: string | null }>;
  /**
   * Checks a webhook call's authenticity and reads its event. Throws ApiError: 401 for a missing, forged
   * or stale signature, 400 for a signed body that is not an event, 503 when no secret is configured.
   * Replays (a known event id) are the service's to refuse: it keeps the ledger.
   */
  verifyWebhook(call: { rawBody: Buffer; header(name: string): string | undefined }, now: Date): PaymentWebhookEvent;
}

const REFUSAL: Record<'missing' | 'malformed' | 'stale' | 'forged', string> = {
  missing: 'Missing webhook signature.',
  malformed: 'Malformed webhook signature.',
  stale: 'Webhook timestamp is too old or too far ahead.',
  forged: 'Webhook signature does not match.',
};

/**
 * The default provider: works with no third party at all. A bill is issued with a due date `dueDays`
 * after the day it is created; it is paid when a distributor records the payment (POST
 * /api/v1/mark_bill_paid) or when a signed `bill.paid` event reaches the webhook (from a bank
 * reconciliation script, or a provider configured to call it).
 */
export function offlinePaymentProvider(opts: {
  webhookSecret: string | undefined;
  dueDays: number;
  toleranceSeconds: number;
}): PaymentProvider {
  return {
    name: 'offline',
    async issue({ issuedAt }) {
      const due = new Date(Date.UTC(issuedAt.getUTCFullYear(), issuedAt.getUTCMonth(), issuedAt.getUTCDate() + opts.dueDays));
      return { dueDate: due.toISOString().slice(0, 10), reference: null };
    },
    verifyWebhook(call, now) {
      if (!opts.webhookSecret)
        throw new ApiError(503, { detail: 'The payment webhook is not configured (BILLING_WEBHOOK_SECRET).' });
      const check = verifyWebhookSignature({
        secret: opts.webhookSecret,
        rawBody: call.rawBody,
        timestampHeader: call.header(TIMESTAMP_HEADER),
        signatureHeader: call.header(SIGNATURE_HEADER),
        now,
        toleranceSeconds: opts.toleranceSeconds,
      });
      if (!check.ok) throw new ApiError(401, { detail: REFUSAL[check.reason], code: `signature_${check.reason}` });
      let body: unknown;
      try {
        body = JSON.parse(call.rawBody.toString('utf8'));
      } catch {
        throw ApiError.badRequest('Malformed JSON in request body.');
      }
      return parse(paymentWebhookEventSchema, body);
    },
  };
}
