import {
  BILLABLE_PLANS,
  billTotalUsd,
  OPEN_BILL_STATUSES,
  PLAN_CATALOGUE,
  planOf,
  type Bill,
  type Plan,
  type UnsubscribedDevice,
} from '@fleet/shared';

/** One row of Active Subscriptions: a plan in force and how many devices it covers. */
export type ActiveSubscription = { path: string; name: string; deviceCount: number; plan: Plan | undefined };

/**
 * Active Subscriptions from the bills the caller sees: paid (ACTIVE) bills grouped by plan, each device
 * counted once per plan (a device on two paid bills of one plan is one device), in catalogue order.
 */
export function activeSubscriptions(bills: Bill[]): ActiveSubscription[] {
  const byPlan = new Map<string, { name: string; serials: Set<string> }>();
  for (const bill of bills) {
    if (bill.status !== 'ACTIVE') continue;
    const entry = byPlan.get(bill.product_name) ?? {
      name: planOf(bill.product_name)?.name ?? bill.name,
      serials: new Set<string>(),
    };
    bill.device_serial_list.forEach((s) => entry.serials.add(s));
    byPlan.set(bill.product_name, entry);
  }
  const order = (path: string) => {
    const i = PLAN_CATALOGUE.findIndex((p) => p.path === path);
    return i < 0 ? PLAN_CATALOGUE.length : i;
  };
  return [...byPlan.entries()]
    .sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b))
    .map(([path, { name, serials }]) => ({ path, name, deviceCount: serials.size, plan: planOf(path) }));
}

/** Pending Subscriptions: bills waiting for payment, overdue ones first, then by due date. */
export function pendingBills(bills: Bill[]): Bill[] {
  return bills
    .filter((b) => (OPEN_BILL_STATUSES as readonly string[]).includes(b.status))
    .sort(
      (a, b) =>
        Number(b.status === 'OVERDUE') - Number(a.status === 'OVERDUE') ||
        (a.due_date ?? '').localeCompare(b.due_date ?? '') ||
        a.id - b.id,
    );
}

/** The plans a device can be added to at checkout (priced), and the Other Subscriptions list. */
export const CHECKOUT_PLANS: readonly Plan[] = BILLABLE_PLANS;
export const OTHER_PLANS: readonly Plan[] = PLAN_CATALOGUE.filter((p) => p.section === 'other');

export type Selection = Record<string, string[]>;
export type SummaryLine = { plan: Plan; serials: string[]; totalUsd: number; tooMany: boolean };

/** The checkout summary: one line per plan with chosen devices, its monthly amount, and whether it exceeds the plan's limit. */
export function summaryLines(selection: Selection): SummaryLine[] {
  return CHECKOUT_PLANS.flatMap((plan) => {
    const serials = selection[plan.path] ?? [];
    if (!serials.length) return [];
    return [
      {
        plan,
        serials,
        totalUsd: billTotalUsd(plan, serials.length),
        tooMany: plan.maxDevices !== null && serials.length > plan.maxDevices,
      },
    ];
  });
}

export function summaryTotal(lines: SummaryLine[]): number {
  return lines.reduce((cents, l) => cents + Math.round(l.totalUsd * 100), 0) / 100;
}

/** Toggles one serial in a plan's selection (kept in the order of the plan's device list). */
export function toggleSerial(selection: Selection, path: string, serial: string, available: UnsubscribedDevice[]): Selection {
  const chosen = new Set(selection[path] ?? []);
  if (chosen.has(serial)) chosen.delete(serial);
  else chosen.add(serial);
  return { ...selection, [path]: available.map((d) => d.serial).filter((s) => chosen.has(s)) };
}

/** Keeps only serials still offered (after a refresh some may have been billed by someone else). */
export function pruneSelection(selection: Selection, offered: Record<string, UnsubscribedDevice[]>): Selection {
  const out: Selection = {};
  for (const [path, serials] of Object.entries(selection)) {
    const still = new Set((offered[path] ?? []).map((d) => d.serial));
    const kept = serials.filter((s) => still.has(s));
    if (kept.length) out[path] = kept;
  }
  return out;
}

/**
 * What an overdue bill means for its payer's account on `today` (UTC, the rule's days): deactivated since
 * the deactivation day once it has come, else deactivated from it if the bill stays unpaid.
 */
export function deactivationNote(
  bill: Pick<Bill, 'status' | 'deactivation_date'>,
  today: string,
): { since: boolean; day: string } | null {
  if (bill.status !== 'OVERDUE' || !bill.deactivation_date) return null;
  return { since: bill.deactivation_date <= today, day: bill.deactivation_date };
}
