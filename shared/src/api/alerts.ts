import { z } from 'zod';
import {
  commentIncidentSchema,
  inboxSchema,
  incidentSchema,
  incidentsQuerySchema,
  markNotificationsReadSchema,
  notificationRulesAnswerSchema,
  pushKeySchema,
  pushSubscriptionSchema,
  putNotificationRulesSchema,
  resolveIncidentSchema,
} from '../schemas/alerts.schema.ts';
import { endpoint } from './endpoint.ts';

/**
 * The alerts calls of issue 43 (docs/alerts.md), with the exact paths other tools rely on. Every signed-in
 * user may call them: which incidents a caller sees is the device scope of its role, checked in the service
 * (server/src/alerts/alerts.service.ts; an incident outside it is a 404, as if it did not exist).
 */
const tag = 'Alerts';
const detail = z.object({ detail: z.string() });
const notFound = { description: 'No incident with this id in the caller scope', schema: detail };
const fieldErrors = {
  description: 'A field that does not fit, named by its path: {"rules[0].scope": ["..."]}',
  schema: z.record(z.string(), z.array(z.string())),
};
const incident = { description: 'The incident as it is now, with its timeline', schema: incidentSchema };

export const alertsApi = {
  incidents: endpoint({
    method: 'get',
    path: '/api/v1/incidents',
    tag,
    summary:
      "The caller's incidents in scope (?state=open|acknowledged|resolved, ?severity=, ?siteId=), unresolved first, newest first",
    description:
      'An incident groups the alerts of one site and cause (a carrier outage at a site is one incident). Clients see incidents with a device of their brands, market partners with one of their exclusive devices, and their own account incidents.',
    query: incidentsQuerySchema,
    responses: { 200: { description: 'Incidents with their timeline', schema: z.array(incidentSchema) }, 400: fieldErrors },
  }),
  incident: endpoint({
    method: 'get',
    path: '/api/v1/incidents/:id',
    tag,
    summary: 'One incident with its timeline',
    responses: { 200: incident, 404: notFound },
  }),
  acknowledge: endpoint({
    method: 'post',
    path: '/api/v1/incidents/:id/acknowledge',
    tag,
    summary: 'Acknowledge: records who and when, stops escalation (idempotent)',
    responses: { 200: incident, 400: { description: 'Resolved already', schema: detail }, 404: notFound },
  }),
  resolve: endpoint({
    method: 'post',
    path: '/api/v1/incidents/:id/resolve',
    tag,
    summary: 'Resolve by hand with a note',
    body: resolveIncidentSchema,
    responses: { 200: incident, 400: fieldErrors, 404: notFound },
  }),
  comment: endpoint({
    method: 'post',
    path: '/api/v1/incidents/:id/comment',
    tag,
    summary: 'Add a comment to the timeline',
    body: commentIncidentSchema,
    responses: { 200: incident, 400: fieldErrors, 404: notFound },
  }),
  rules: endpoint({
    method: 'get',
    path: '/api/v1/notificationRules',
    tag,
    summary:
      "The caller's notification rules (in-app for every condition until saved) and, for a distributor, the organisation's escalation policy",
    responses: { 200: { description: 'Rules', schema: notificationRulesAnswerSchema } },
  }),
  saveRules: endpoint({
    method: 'put',
    path: '/api/v1/notificationRules',
    tag,
    summary: 'Replace the caller rules; distributors also set the escalation policy',
    description:
      '400 naming the field for a scope outside the caller devices, quiet hours that are not HH:mm times or an unknown zone, an unknown condition, SMS without a phone number, an escalation policy from a non-distributor or naming a user outside the organisation.',
    body: putNotificationRulesSchema,
    responses: { 200: { description: 'Rules as saved', schema: notificationRulesAnswerSchema }, 400: fieldErrors },
  }),
  inbox: endpoint({
    method: 'get',
    path: '/api/v1/notifications',
    tag,
    summary: 'The bell: in-app notices, newest first, and the unread count',
    responses: { 200: { description: 'Notices', schema: inboxSchema } },
  }),
  markRead: endpoint({
    method: 'post',
    path: '/api/v1/notifications/read',
    tag,
    summary: 'Mark in-app notices read (all, or of {incidentId})',
    body: markNotificationsReadSchema,
    responses: { 200: { description: 'Notices', schema: inboxSchema }, 400: fieldErrors },
  }),
  pushKey: endpoint({
    method: 'get',
    path: '/api/v1/pushSubscription',
    tag,
    summary: "Web Push's public VAPID key (null: push not configured)",
    responses: { 200: { description: 'Key', schema: pushKeySchema } },
  }),
  subscribePush: endpoint({
    method: 'post',
    path: '/api/v1/pushSubscription',
    tag,
    summary: "Save this browser's Web Push subscription (PushSubscription.toJSON())",
    body: pushSubscriptionSchema,
    responses: {
      201: { description: 'Saved', schema: detail },
      400: {
        description: 'Push not configured ({detail}), or a field that does not fit',
        schema: z.union([detail, fieldErrors.schema]),
      },
    },
  }),
};
