/** Subscriptions and bills (billing.routes.ts -> billing.service.ts -> billing.repository.ts) and the overdue check's tick (scheduled by server/src/processes/schedules.ts). */
export { billingRoutes } from './billing.routes.ts';
export { overdueTick, OVERDUE_TICK_MINUTES } from './overdue-schedule.ts';
