import { alertsApi, type IncidentState, type PutNotificationRules, type Severity } from '@fleet/shared';
import { call, createApiFx } from '../../shared/api';

/**
 * The incident calls of issue 43 (declared in shared/src/api/alerts.ts): the list in the caller's scope, one
 * incident with its timeline, its actions (each answered with the incident as it is now), the bell's inbox
 * and the caller's notification rules.
 */
export type IncidentFilter = { state: IncidentState | null; severity: Severity | null; siteId: number | null };
export type { Inbox } from '@fleet/shared';

/** The query of a filter: only what is set. */
const incidentsQuery = (filter: IncidentFilter) => ({
  ...(filter.state ? { state: filter.state } : {}),
  ...(filter.severity ? { severity: filter.severity } : {}),
  ...(filter.siteId !== null ? { siteId: filter.siteId } : {}),
});

export const fetchIncidentsFx = createApiFx((filter: IncidentFilter) =>
  call(alertsApi.incidents, { query: incidentsQuery(filter) }),
);
export const fetchIncidentFx = createApiFx((id: number) => call(alertsApi.incident, { params: { id } }));
export const acknowledgeIncidentFx = createApiFx((id: number) => call(alertsApi.acknowledge, { params: { id } }));
export const resolveIncidentFx = createApiFx(({ id, note }: { id: number; note: string }) =>
  call(alertsApi.resolve, { params: { id }, body: { note } }),
);
export const commentIncidentFx = createApiFx(({ id, text }: { id: number; text: string }) =>
  call(alertsApi.comment, { params: { id }, body: { text } }),
);

export const fetchInboxFx = createApiFx(() => call(alertsApi.inbox));
export const markReadFx = createApiFx((incidentId: number | null) =>
  call(alertsApi.markRead, { body: incidentId === null ? {} : { incidentId } }),
);

export const fetchNotificationRulesFx = createApiFx(() => call(alertsApi.rules));
export const saveNotificationRulesFx = createApiFx((body: PutNotificationRules) => call(alertsApi.saveRules, { body }));
