import { INVOICE_OVERDUE_DEACTIVATION_DAYS } from '../constants.ts';
import { addDays, daysBetween } from './telemetry.ts';

/**
 * The plan catalogue of spec section 9 (USD per month). One list, read by the server (prices a bill may
 * carry), the client (the Subscriptions tab) and the tests: a price is never typed twice.
 *
 * - `path` is the product path of POST /get_unsubscription_list and create_bill's `product_name`
 *   (the spec names basic-plan, sim-card, maintenance and "support plan"; the last is `support-plan`
 *   here and the spelling with a space is accepted too, see `planOf`).
 * - `pricing` 'per-device': price × devices; 'flat': the price whatever the number of devices.
 * - `maxDevices`: the most devices one bill of the plan covers (section 9's "up to 500 devices").
 * - `section`: 'active' plans are the ones offered for the fleet (Active Subscriptions when subscribed);
 *   'other' are the Other Subscriptions list, with 'TBA' where no price is known. Only Vandalism
 *   Deactivation is marked 'new': section 9 writes "Vandalism Deactivation 7.5 (new), BLE Tracking 3".
 */
export type PlanPricing = 'per-device' | 'flat';
export type Plan = {
  path: string;
  name: string;
  priceUsd: number | null;
  pricing: PlanPricing;
  maxDevices: number | null;
  isNew: boolean;
  section: 'main' | 'other';
};

export const PLAN_CATALOGUE = [
  {
    path: 'basic-plan',
    name: 'Basic Plan (Contract)',
    priceUsd: 17,
    pricing: 'per-device',
    maxDevices: null,
    isNew: false,
    section: 'main',
  },
  { path: 'sim-card', name: 'Sim Card', priceUsd: 5, pricing: 'per-device', maxDevices: null, isNew: false, section: 'main' },
  {
    path: 'maintenance',
    name: 'Maintenance',
    priceUsd: 7.5,
    pricing: 'per-device',
    maxDevices: 500,
    isNew: false,
    section: 'main',
  },
  { path: 'support-plan', name: '8x7 support', priceUsd: 1980, pricing: 'flat', maxDevices: 500, isNew: false, section: 'main' },
  {
    path: 'vandalism-deactivation',
    name: 'Vandalism Deactivation',
    priceUsd: 7.5,
    pricing: 'per-device',
    maxDevices: null,
    isNew: true,
    section: 'other',
  },
  {
    path: 'ble-tracking',
    name: 'BLE Tracking',
    priceUsd: 3,
    pricing: 'per-device',
    maxDevices: null,
    isNew: false,
    section: 'other',
  },
  {
    path: 'digital-content-management',
    name: 'Digital Content Management',
    priceUsd: null,
    pricing: 'per-device',
    maxDevices: null,
    isNew: false,
    section: 'other',
  },
  {
    path: 'pir-auto-on-face-counting',
    name: 'PIR Auto On/Face Counting',
    priceUsd: null,
    pricing: 'per-device',
    maxDevices: null,
    isNew: false,
    section: 'other',
  },
  {
    path: 'geolocation',
    name: 'Geolocation',
    priceUsd: null,
    pricing: 'per-device',
    maxDevices: null,
    isNew: false,
    section: 'other',
  },
  {
    path: 'geo-blocking',
    name: 'Geo Blocking',
    priceUsd: null,
    pricing: 'per-device',
    maxDevices: null,
    isNew: false,
    section: 'other',
  },
  {
    path: 'face-detection-and-trigger',
    name: 'Face detection and trigger',
    priceUsd: null,
    pricing: 'per-device',
    maxDevices: null,
    isNew: false,
    section: 'other',
  },
] as const satisfies readonly Plan[];

/** What the tab writes where a plan has no price yet (spec section 2). */
export const PRICE_TBA = 'TBA';

/** Plans a bill can be issued for: those with a price. */
export const BILLABLE_PLANS: readonly Plan[] = PLAN_CATALOGUE.filter((p) => p.priceUsd !== null);

/**
 * The plan a product path names, ignoring case, surrounding blanks and blanks-for-hyphens, so the spec's
 * "support plan" and `support-plan` are one product. Undefined for an unknown path.
 */
export function planOf(path: string): Plan | undefined {
  const key = path.trim().toLowerCase().replace(/\s+/g, '-');
  return PLAN_CATALOGUE.find((p) => p.path === key);
}

/** 'USD 17 / device / month', 'USD 1,980 / month', or 'TBA'. */
export function planPriceText(plan: Pick<Plan, 'priceUsd' | 'pricing'>): string {
  if (plan.priceUsd === null) return PRICE_TBA;
  return `${formatUsd(plan.priceUsd)} ${plan.pricing === 'flat' ? '/ month' : '/ device / month'}`;
}

/** '$7.50', '$1,980.00': cents always shown, as on an invoice. */
export function formatUsd(amount: number): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(amount);
}

/** The monthly amount of a bill: price × devices, or the flat price; in cents, so 3 × 7.5 is exactly 22.5. */
export function billTotalUsd(plan: Pick<Plan, 'priceUsd' | 'pricing'>, deviceCount: number): number {
  if (plan.priceUsd === null) throw new Error('A plan without a price cannot be billed.');
  const cents = Math.round(plan.priceUsd * 100);
  return (plan.pricing === 'flat' ? cents : cents * deviceCount) / 100;
}

// ---------------------------------------------------------------- bill states and the overdue rule

/**
 * Bill states: PENDING (issued, not paid), OVERDUE (not paid after its due date), ACTIVE (paid: the
 * subscription is in force, spec section 3's "ACTIVE"), CANCELLED.
 */
export const BILL_STATUSES = ['PENDING', 'OVERDUE', 'ACTIVE', 'CANCELLED'] as const;
export type BillStatus = (typeof BILL_STATUSES)[number];
/** A bill still waiting for its payment. */
export const OPEN_BILL_STATUSES: readonly BillStatus[] = ['PENDING', 'OVERDUE'];

/** The reason stored on users.deactivated_reason by the overdue rule (payment lifts only this one). */
export const OVERDUE_DEACTIVATION_REASON = 'overdue';

/** Whole days from the calendar day `dueDate` to `today` (both 'YYYY-MM-DD'); negative before it. */
export function daysPastDue(dueDate: string, today: string): number {
  return daysBetween(dueDate, today);
}

/**
 * The overdue rule (spec sections 2 and 9), its one statement: an invoice still unpaid 15 days past its due
 * date deactivates the account. Day 15 deactivates, day 14 does not; the days are calendar days in UTC.
 * Put as a bound on the due date: on `today`, an open bill due on or before this day deactivates its
 * payer. The server's SQL (billing.repository.ts: `due_date <= bound`) is handed this bound, and
 * `deactivationDue` below compares with it too, so the two cannot drift apart (a test runs both on the
 * same bills: tests/integration/billing.test.ts).
 */
export function lastDeactivatingDueDate(today: string): string {
  return addDays(today, -INVOICE_OVERDUE_DEACTIVATION_DAYS);
}

/** Whether an open bill deactivates its payer on `today` (the overdue rule for one bill). */
export function deactivationDue(bill: { status: string; dueDate: string | null }, today: string): boolean {
  if (!bill.dueDate || !(OPEN_BILL_STATUSES as readonly string[]).includes(bill.status)) return false;
  return bill.dueDate <= lastDeactivatingDueDate(today);
}

/** The first day on which a bill due on `dueDate` deactivates its account (the inverse of the bound). */
export function deactivationDay(dueDate: string): string {
  return addDays(dueDate, INVOICE_OVERDUE_DEACTIVATION_DAYS);
}
