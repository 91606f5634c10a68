import { batchesApi } from '@fleet/shared';
import type { AppContext } from '../context.ts';
import { viewerOf } from '../auth/index.ts';
import { endpointRoutes } from '../openapi/endpoint-routes.ts';
import type { Routes } from '../openapi/route-docs.ts';
import { batchesRepository } from './batches.repository.ts';
import { batchesService } from './batches.service.ts';

/** The batch calls of spec section 7, declared in shared/src/api/batches.ts. */
export function batchesRoutes(ctx: AppContext): Routes {
  const service = batchesService({
    repo: batchesRepository(ctx.db),
    queue: ctx.queue,
    now: ctx.now,
    log: ctx.log,
    devicesChanged: (serials) => ctx.pollNudge?.devicesChanged(serials),
  });
  const { router, docs, on } = endpointRoutes();

  on(batchesApi.list, async (req, res) => {
    res.json(await service.list(viewerOf(req)));
  });
  on(batchesApi.choosable, async (req, res) => {
    res.json(await service.choosable(viewerOf(req), req.params.pumpTypeCode));
  });
  on(batchesApi.add, async (req, res) => {
    res.status(201).json(await service.add(viewerOf(req), req.body));
  });
  on(batchesApi.edit, async (req, res) => {
    res.json(await service.edit(viewerOf(req), req.params.id, req.body));
  });
  on(batchesApi.remove, async (req, res) => {
    res.json(await service.remove(viewerOf(req), req.params.id));
  });
  // A recall pauses and flags the devices it feeds, a resume clears the flag: their watchers' polls run now
  // (workers/src/realtime/nudge.ts) instead of at the next period.
  const nudge = (answer: { devices: { serial: string }[] }) => ctx.pollNudge?.devicesChanged(answer.devices.map((d) => d.serial));
  on(batchesApi.recall, async (req, res) => {
    const answer = await service.recall(viewerOf(req), req.params.id, req.body);
    res.json(answer);
    nudge(answer);
  });
  on(batchesApi.resume, async (req, res) => {
    const answer = await service.resume(viewerOf(req), req.params.id);
    res.json(answer);
    nudge(answer);
  });
  return { router, docs };
}
