/** Subscriptions and bills (billing.routes.ts -> billing.service.ts -> billing.repository.ts) and the overdue check's schedule. */
export { billingRoutes } from './billing.routes.ts';
export { startOverdueSchedule } from './overdue-schedule.ts';
