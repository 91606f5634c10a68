import type { AppContext } from '../context.ts';
import { dbJobLedger } from '../jobs/index.ts';
import { billingServiceOf } from './billing.routes.ts';

/** The overdue check's period: the rule counts whole days, so a few minutes' delay changes nothing. */
export const OVERDUE_TICK_MINUTES = 10;

/** The ledger key of the tick `at` falls in: every process computes the same one. */
export function overdueTickKey(at: Date, minutes = OVERDUE_TICK_MINUTES): string {
  const ms = minutes * 60_000;
  return `billing-overdue:${new Date(Math.floor(at.getTime() / ms) * ms).toISOString()}`;
}

/**
 * One tick of the overdue rule, run once across processes: the processes that run scheduled work schedule it
 * (the all-in-one process, or every worker of a split deployment; an API-only server does not), and the job
 * ledger (job_runs, a unique key per tick) lets the first one run it and the others skip. A failed run leaves
 * its key 'failed', so the next process's attempt of the same tick may retry it; the next tick runs anyway.
 */
export async function overdueTick(ctx: Pick<AppContext, 'db' | 'config' | 'now' | 'sessions' | 'log'>) {
  const ledger = dbJobLedger(ctx.db);
  const key = overdueTickKey(ctx.now());
  if ((await ledger.begin(key, 'billing-overdue')) === 'skip') return { ran: false as const };
  try {
    const result = await billingServiceOf(ctx).runOverdueCheck();
    await ledger.done(key);
    if (result.deactivated.length)
      ctx.log(`billing: ${result.deactivated.length} account(s) deactivated for an invoice 15 days overdue`);
    return { ran: true as const, ...result };
  } catch (err) {
    await ledger.failed(key, String((err as Error)?.stack ?? err));
    throw err;
  }
}
