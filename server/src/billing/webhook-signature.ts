import crypto from 'node:crypto';

/**
 * The payment webhook's signature (docs/api.md, 'Subscriptions and billing'):
 *
 *   X-Billing-Timestamp: <unix seconds>
 *   X-Billing-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>
 *
 * The timestamp is inside the signed text, so an old call cannot be re-dated; a call further than the
 * tolerance from the server clock is refused as stale, and a replay within it is caught by its event id
 * (payment_webhook_events). The comparison is constant-time.
 */
export const SIGNATURE_HEADER = 'x-billing-signature';
export const TIMESTAMP_HEADER = 'x-billing-timestamp';

export function signWebhook(secret: string, timestamp: number, rawBody: string | Buffer): string {
  const mac = crypto.createHmac('sha256', secret);
  mac.update(`${timestamp}.`);
  mac.update(rawBody);
  return `sha256=${mac.digest('hex')}`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'forged' };

export function verifyWebhookSignature(args: {
  secret: string;
  rawBody: Buffer;
  timestampHeader: string | undefined;
  signatureHeader: string | undefined;
  now: Date;
  toleranceSeconds: number;
}): SignatureCheck {
  const { timestampHeader, signatureHeader } = args;
  if (!timestampHeader || !signatureHeader) return { ok: false, reason: 'missing' };
  if (!/^\d{1,12}$/.test(timestampHeader.trim())) return { ok: false, reason: 'malformed' };
  const m = /^sha256=([0-9a-f]{64})$/i.exec(signatureHeader.trim());
  if (!m) return { ok: false, reason: 'malformed' };
  const timestamp = Number(timestampHeader.trim());
  if (Math.abs(args.now.getTime() / 1000 - timestamp) > args.toleranceSeconds) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(signWebhook(args.secret, timestamp, args.rawBody).slice('sha256='.length), 'hex');
  const given = Buffer.from(m[1]!.toLowerCase(), 'hex');
  return crypto.timingSafeEqual(expected, given) ? { ok: true } : { ok: false, reason: 'forged' };
}
