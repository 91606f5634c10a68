import { z } from 'zod';
import { BILL_STATUSES, BILLABLE_PLANS, billTotalUsd, formatUsd, planOf } from '../rules/billing.ts';
import { requiredText, text } from './common.ts';
import { serialSchema } from './device.schema.ts';

/**
 * The billing calls of spec section 7 (get_unsubscription_list, get_all_bill, create_bill), the
 * distributor's mark-paid call and the payment provider's webhook. Field messages are sentences a
 * person can act on; the server re-checks every price against the catalogue (rules/billing.ts).
 */
export const BILLING_MESSAGES = {
  unknownProduct: (name: string) => `Unknown product: ${name}.`,
  notBillable: (name: string) => `${name} has no price yet (TBA) and cannot be billed.`,
  wrongPrice: (name: string, price: number, flat: boolean) =>
    `The price of ${name} is ${formatUsd(price)} ${flat ? 'per month' : 'per device per month'}.`,
  wrongName: (product: string, name: string) => `The name of ${product} is ${name}.`,
  tooManyDevices: (name: string, max: number) => `${name} covers at most ${max} devices per bill.`,
  noDevices: 'Choose at least one device.',
  duplicateSerial: 'A device is listed twice.',
  unknownDevice: (serial: string) => `Unknown device: ${serial}.`,
  alreadyOnPlan: (serial: string, name: string) => `${serial} is already on ${name} (active or waiting for payment).`,
  billUidTaken: 'This bill_uid is already used by another bill.',
  billNotFound: 'No bill with this bill_uid.',
  alreadyPaid: 'This bill is already paid.',
  cancelled: 'This bill was cancelled.',
  paymentType: 'payment_type must be SUBSCRIPTION.',
} as const;

const MAX_DEVICES_PER_BILL = 10_000;

/** A product path (basic-plan, sim-card, maintenance, support plan, ...) that names a plan with a price. */
const billableProduct = z
  .string({ error: 'This field is required.' })
  .trim()
  .min(1, { error: 'This field may not be blank.' })
  .max(64, { error: 'Ensure this field has no more than 64 characters.' })
  .superRefine((value, ctx) => {
    const plan = planOf(value);
    if (!plan) ctx.addIssue({ code: 'custom', message: BILLING_MESSAGES.unknownProduct(value) });
    else if (plan.priceUsd === null) ctx.addIssue({ code: 'custom', message: BILLING_MESSAGES.notBillable(plan.name) });
  });

/** POST /api/v1/get_unsubscription_list: the products to list the caller's devices not yet on. */
export const unsubscriptionListSchema = z.object({
  product_name_list: z
    .array(billableProduct, { error: 'Must be a list of product names.' })
    .min(1, { error: 'Name at least one product.' })
    .max(BILLABLE_PLANS.length * 2, { error: 'Too many products.' }),
});
export type UnsubscriptionListInput = z.input<typeof unsubscriptionListSchema>;

export const unsubscribedDeviceSchema = z.object({
  serial: z.string(),
  label: z.string(),
  address: z.string(),
  brand_name: z.string().nullable(),
});
export type UnsubscribedDevice = z.infer<typeof unsubscribedDeviceSchema>;
/** Keyed by the product path as asked (so "support plan" answers under "support plan"). */
export const unsubscriptionListAnswerSchema = z.record(z.string(), z.array(unsubscribedDeviceSchema));
export type UnsubscriptionListAnswer = z.infer<typeof unsubscriptionListAnswerSchema>;

/** A bill id the caller makes (idempotency: the same bill_uid with the same content answers the same bill). */
const billUid = text(64)
  .min(1, { error: 'This field may not be blank.', abort: true })
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, { error: 'Use letters, digits and . _ : - only.' });

/** Names compared as a person reads them: case and runs of blanks aside. */
const sameName = (a: string, b: string) =>
  a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * POST /api/v1/create_bill (spec section 3: bill_uid, product_name, price_usd, name, device_serial_list, note,
 * payment_type). `price_usd` and `name` must be the catalogue's for the product (a mismatch is a 400 with
 * the right value in the field message, like a wrong price); the server stores the catalogue's name.
 */
export const createBillSchema = z
  .object({
    bill_uid: billUid,
    product_name: billableProduct,
    price_usd: z.number({ error: 'Must be a number.' }).nonnegative({ error: 'Must be a number.' }),
    name: requiredText(120),
    device_serial_list: z
      .array(serialSchema, { error: 'Must be a list of serials.' })
      .min(1, { error: BILLING_MESSAGES.noDevices })
      .max(MAX_DEVICES_PER_BILL, { error: `At most ${MAX_DEVICES_PER_BILL} devices.` })
      .refine((list) => new Set(list).size === list.length, { error: BILLING_MESSAGES.duplicateSerial }),
    note: text(500).optional().default(''),
    payment_type: z.literal('SUBSCRIPTION', { error: BILLING_MESSAGES.paymentType }).optional().default('SUBSCRIPTION'),
  })
  .superRefine((input, ctx) => {
    const plan = planOf(input.product_name);
    if (!plan || plan.priceUsd === null) return;
    // The price is the catalogue's: a client that sends another one is told the real price, never billed it.
    if (Math.round(input.price_usd * 100) !== Math.round(plan.priceUsd * 100)) {
      ctx.addIssue({
        code: 'custom',
        path: ['price_usd'],
        message: BILLING_MESSAGES.wrongPrice(plan.name, plan.priceUsd, plan.pricing === 'flat'),
      });
    }
    // A bill named otherwise than its product would read as another plan on every screen and invoice.
    if (input.name && !sameName(input.name, plan.name)) {
      ctx.addIssue({ code: 'custom', path: ['name'], message: BILLING_MESSAGES.wrongName(plan.path, plan.name) });
    }
    if (plan.maxDevices !== null && input.device_serial_list.length > plan.maxDevices) {
      ctx.addIssue({
        code: 'custom',
        path: ['device_serial_list'],
        message: BILLING_MESSAGES.tooManyDevices(plan.name, plan.maxDevices),
      });
    }
  });
export type CreateBillInput = z.input<typeof createBillSchema>;

/** POST /api/v1/mark_bill_paid: a distributor records a payment received outside the portal. */
export const markBillPaidSchema = z.object({ bill_uid: billUid, reference: text(120).optional().default('') });
export type MarkBillPaidInput = z.input<typeof markBillPaidSchema>;

/** A bill as the billing calls answer it. */
export const billSchema = z.object({
  id: z.number(),
  bill_uid: z.string(),
  product_name: z.string(),
  name: z.string(),
  /** The catalogue price: per device per month, or per month for a flat plan. */
  price_usd: z.number(),
  pricing: z.enum(['per-device', 'flat']),
  /** What the bill asks each month: price × devices, or the flat price. */
  total_usd: z.number(),
  device_count: z.number(),
  device_serial_list: z.array(z.string()),
  note: z.string(),
  payment_type: z.literal('SUBSCRIPTION'),
  status: z.enum(BILL_STATUSES),
  /** 'YYYY-MM-DD' */
  due_date: z.string().nullable(),
  /** The day an unpaid bill deactivates its payer's account (due date + 15 days). */
  deactivation_date: z.string().nullable(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  provider: z.string(),
  payment_reference: z.string().nullable(),
  payer: z.object({ id: z.number(), email: z.string(), name: z.string(), company: z.string() }),
});
export type Bill = z.infer<typeof billSchema>;

/** The event the payment provider's webhook carries (signed, see docs/api.md, 'Subscriptions and billing'). */
export const paymentWebhookEventSchema = z.object({
  event_id: requiredText(128),
  type: z.literal('bill.paid', { error: 'Unknown event type.' }),
  bill_uid: billUid,
  reference: text(120).optional().default(''),
});
export type PaymentWebhookEvent = z.output<typeof paymentWebhookEventSchema>;

/** The monthly total of a list of chosen devices per product (the checkout summary). */
export function checkoutTotalUsd(lines: { product_name: string; deviceCount: number }[]): number {
  let cents = 0;
  for (const line of lines) {
    const plan = planOf(line.product_name);
    if (plan && plan.priceUsd !== null && line.deviceCount > 0) cents += Math.round(billTotalUsd(plan, line.deviceCount) * 100);
  }
  return cents / 100;
}
