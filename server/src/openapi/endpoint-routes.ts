import { Router, type RequestHandler } from 'express';
import type { Endpoint } from '@fleet/shared';
import { requireRoles } from '../auth/index.ts';
import { answerCheck } from './answer-check.ts';

/**
 * A feature's router built from its endpoint declarations (shared/src/api/): `on(declaration, ...handlers)`
 * registers the route at the declared method and path (relative to the router's mount, /api/v1 by default),
 * checks the declared roles before any handler, and lists the declaration for the OpenAPI document and the
 * 415 guard (app.ts). Handlers stay thin: parse, call the service, answer.
 */
export function endpointRoutes(base = '/api/v1') {
  const router = Router();
  const docs: Endpoint[] = [];
  function on(declaration: Endpoint, ...handlers: RequestHandler[]): void {
    if (!declaration.path.startsWith(base)) throw new Error(`${declaration.path} is not under ${base}`);
    const path = declaration.path.slice(base.length) || '/';
    const roles = declaration.roles ? [requireRoles(declaration.roles, declaration.refused)] : [];
    router[declaration.method](path, answerCheck(declaration), ...roles, ...handlers);
    docs.push(declaration);
  }
  return { router, docs, on };
}
