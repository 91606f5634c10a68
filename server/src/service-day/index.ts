/** The service day (issue 48): crews, plans, publishing and progress; the rules live in shared/src/rules/service-day. */
export { serviceDayRoutes, serviceDayServiceOf } from './service-day.routes.ts';
export { servicePlanRenderer } from './plan-mail.ts';
export { servicePlanEvents, type ServicePlanEvents } from './plan-events.ts';
export { serviceDayRepository } from './service-day.repository.ts';
