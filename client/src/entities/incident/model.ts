import type { Incident, IncidentState, NotificationRulesAnswer, PutNotificationRules, Severity } from '@fleet/shared';
import { createApiFx, http } from '../../shared/api';

/**
 * The incident calls of issue 43 (server/src/alerts): the list in the caller's scope, one incident with
 * its timeline, its actions (each answered with the incident as it is now), the bell's inbox and the
 * caller's notification rules.
 */
export type IncidentFilter = { state: IncidentState | null; severity: Severity | null; siteId: number | null };
export type Inbox = { unread: number; items: { id: number; incidentId: number; kind: string; at: string; read: boolean }[] };

/** The query string of a filter: only what is set. */
export function incidentsQuery(filter: IncidentFilter): string {
  const params = new URLSearchParams();
  if (filter.state) params.set('state', filter.state);
  if (filter.severity) params.set('severity', filter.severity);
  if (filter.siteId !== null) params.set('siteId', String(filter.siteId));
  const query = params.toString();
  return query ? `?${query}` : '';
}

export const fetchIncidentsFx = createApiFx((filter: IncidentFilter) =>
  http<Incident[]>(`/api/v1/incidents${incidentsQuery(filter)}`),
);
export const fetchIncidentFx = createApiFx((id: number) => http<Incident>(`/api/v1/incidents/${id}`));
export const acknowledgeIncidentFx = createApiFx((id: number) =>
  http<Incident>(`/api/v1/incidents/${id}/acknowledge`, { method: 'POST', json: {} }),
);
export const resolveIncidentFx = createApiFx(({ id, note }: { id: number; note: string }) =>
  http<Incident>(`/api/v1/incidents/${id}/resolve`, { method: 'POST', json: { note } }),
);
export const commentIncidentFx = createApiFx(({ id, text }: { id: number; text: string }) =>
  http<Incident>(`/api/v1/incidents/${id}/comment`, { method: 'POST', json: { text } }),
);

export const fetchInboxFx = createApiFx(() => http<Inbox>('/api/v1/notifications'));
export const markReadFx = createApiFx((incidentId: number | null) =>
  http<Inbox>('/api/v1/notifications/read', { method: 'POST', json: incidentId === null ? {} : { incidentId } }),
);

export const fetchNotificationRulesFx = createApiFx(() => http<NotificationRulesAnswer>('/api/v1/notificationRules'));
export const saveNotificationRulesFx = createApiFx((body: PutNotificationRules) =>
  http<NotificationRulesAnswer>('/api/v1/notificationRules', { method: 'PUT', json: body }),
);
