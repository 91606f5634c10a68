import { alertsApi } from '@fleet/shared';
import { viewerOf } from '../auth/index.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import type { AlertsService } from './alerts.service.ts';

/** The incident, notification-rule, bell and push calls of issue 43, declared in shared/src/api/alerts.ts. */
export function alertsRoutes(service: AlertsService): Routes {
  const { router, docs, on } = endpointRoutes();
  on(alertsApi.incidents, async (req, res) => {
    res.json(await service.list(viewerOf(req), req.query));
  });
  on(alertsApi.incident, async (req, res) => {
    res.json(await service.one(viewerOf(req), req.params.id));
  });
  on(alertsApi.acknowledge, async (req, res) => {
    res.json(await service.acknowledge(viewerOf(req), req.params.id));
  });
  on(alertsApi.resolve, async (req, res) => {
    res.json(await service.resolve(viewerOf(req), req.params.id, req.body));
  });
  on(alertsApi.comment, async (req, res) => {
    res.json(await service.comment(viewerOf(req), req.params.id, req.body));
  });
  on(alertsApi.rules, async (req, res) => {
    res.json(await service.rules(viewerOf(req)));
  });
  on(alertsApi.saveRules, async (req, res) => {
    res.json(await service.saveRules(viewerOf(req), req.body));
  });
  on(alertsApi.inbox, async (req, res) => {
    res.json(await service.inbox(viewerOf(req)));
  });
  on(alertsApi.markRead, async (req, res) => {
    res.json(await service.markRead(viewerOf(req), req.body));
  });
  on(alertsApi.pushKey, (_req, res) => {
    res.json(service.pushKey());
  });
  on(alertsApi.subscribePush, async (req, res) => {
    res.status(201).json(await service.subscribePush(viewerOf(req), req.body));
  });
  return { router, docs };
}
