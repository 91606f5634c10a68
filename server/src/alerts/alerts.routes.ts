import { Router } from 'express';
import { z } from 'zod';
import {
  commentIncidentSchema,
  incidentSchema,
  incidentsQuerySchema,
  notificationRulesAnswerSchema,
  pushSubscriptionSchema,
  putNotificationRulesSchema,
  resolveIncidentSchema,
} from '@fleet/shared';
import { viewerOf } from '../auth/index.ts';
import type { RouteDoc, Routes } from '../openapi/route-docs.ts';
import type { AlertsService } from './alerts.service.ts';

/** The incident and notification-rule calls of issue 43, with their exact paths. */
export function alertsRoutes(service: AlertsService): Routes {
  const router = Router();
  router.get('/incidents', async (req, res) => {
    res.json(await service.list(viewerOf(req), req.query));
  });
  router.get('/incidents/:id', async (req, res) => {
    res.json(await service.one(viewerOf(req), req.params.id));
  });
  router.post('/incidents/:id/acknowledge', async (req, res) => {
    res.json(await service.acknowledge(viewerOf(req), req.params.id));
  });
  router.post('/incidents/:id/resolve', async (req, res) => {
    res.json(await service.resolve(viewerOf(req), req.params.id, req.body));
  });
  router.post('/incidents/:id/comment', async (req, res) => {
    res.json(await service.comment(viewerOf(req), req.params.id, req.body));
  });
  router.get('/notificationRules', async (req, res) => {
    res.json(await service.rules(viewerOf(req)));
  });
  router.put('/notificationRules', async (req, res) => {
    res.json(await service.saveRules(viewerOf(req), req.body));
  });
  router.get('/notifications', async (req, res) => {
    res.json(await service.inbox(viewerOf(req)));
  });
  router.post('/notifications/read', async (req, res) => {
    res.json(await service.markRead(viewerOf(req), req.body));
  });
  router.get('/pushSubscription', (_req, res) => {
    res.json(service.pushKey());
  });
  router.post('/pushSubscription', async (req, res) => {
    res.status(201).json(await service.subscribePush(viewerOf(req), req.body));
  });

  const tag = 'Alerts';
  const detail = z.object({ detail: z.string() });
  const notFound = { description: 'No incident with this id in the caller scope', schema: detail };
  const fieldErrors = {
    description: 'A field that does not fit, named by its path: {"rules[0].scope": ["..."]}',
    schema: z.record(z.string(), z.array(z.string())),
  };
  const inbox = z.object({
    unread: z.number(),
    items: z.array(z.object({ id: z.number(), incidentId: z.number(), kind: z.string(), at: z.string(), read: z.boolean() })),
  });
  const docs: RouteDoc[] = [
    {
      method: 'get',
      path: '/api/v1/incidents',
      tag,
      summary:
        "The caller's incidents in scope (?state=open|acknowledged|resolved, ?severity=, ?siteId=), unresolved first, newest first",
      description:
        'An incident groups the alerts of one site and cause (a carrier outage at a site is one incident). Clients see incidents with a device of their brands, market partners with one of their exclusive devices, and their own account incidents.',
      query: incidentsQuerySchema,
      responses: { 200: { description: 'Incidents with their timeline', schema: z.array(incidentSchema) }, 400: fieldErrors },
    },
    {
      method: 'get',
      path: '/api/v1/incidents/:id',
      tag,
      summary: 'One incident with its timeline',
      responses: { 200: { description: 'The incident', schema: incidentSchema }, 404: notFound },
    },
    {
      method: 'post',
      path: '/api/v1/incidents/:id/acknowledge',
      tag,
      summary: 'Acknowledge: records who and when, stops escalation (idempotent)',
      responses: {
        200: { description: 'The incident', schema: incidentSchema },
        400: { description: 'Resolved already', schema: detail },
        404: notFound,
      },
    },
    {
      method: 'post',
      path: '/api/v1/incidents/:id/resolve',
      tag,
      summary: 'Resolve by hand with a note',
      body: resolveIncidentSchema,
      responses: { 200: { description: 'The incident', schema: incidentSchema }, 400: fieldErrors, 404: notFound },
    },
    {
      method: 'post',
      path: '/api/v1/incidents/:id/comment',
      tag,
      summary: 'Add a comment to the timeline',
      body: commentIncidentSchema,
      responses: { 200: { description: 'The incident', schema: incidentSchema }, 400: fieldErrors, 404: notFound },
    },
    {
      method: 'get',
      path: '/api/v1/notificationRules',
      tag,
      summary:
        "The caller's notification rules (in-app for every condition until saved) and, for a distributor, the organisation's escalation policy",
      responses: { 200: { description: 'Rules', schema: notificationRulesAnswerSchema } },
    },
    {
      method: 'put',
      path: '/api/v1/notificationRules',
      tag,
      summary: 'Replace the caller rules; distributors also set the escalation policy',
      description:
        '400 naming the field for a scope outside the caller devices, quiet hours that are not HH:mm times or an unknown zone, an unknown condition, SMS without a phone number, an escalation policy from a non-distributor or naming a user outside the organisation.',
      body: putNotificationRulesSchema,
      responses: { 200: { description: 'Rules as saved', schema: notificationRulesAnswerSchema }, 400: fieldErrors },
    },
    {
      method: 'get',
      path: '/api/v1/notifications',
      tag,
      summary: 'The bell: in-app notices, newest first, and the unread count',
      responses: { 200: { description: 'Notices', schema: inbox } },
    },
    {
      method: 'post',
      path: '/api/v1/notifications/read',
      tag,
      summary: 'Mark in-app notices read (all, or of {incidentId})',
      responses: { 200: { description: 'Notices', schema: inbox } },
    },
    {
      method: 'get',
      path: '/api/v1/pushSubscription',
      tag,
      summary: "Web Push's public VAPID key (null: push not configured)",
      responses: { 200: { description: 'Key', schema: z.object({ publicKey: z.string().nullable() }) } },
    },
    {
      method: 'post',
      path: '/api/v1/pushSubscription',
      tag,
      summary: "Save this browser's Web Push subscription (PushSubscription.toJSON())",
      body: pushSubscriptionSchema,
      responses: { 201: { description: 'Saved', schema: detail }, 400: fieldErrors },
    },
  ];
  return { router, docs };
}
