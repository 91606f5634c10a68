import type { Request, RequestHandler } from 'express';
import type { AccessLevel } from '@fleet/shared';
import { ApiError } from '../lib/errors.ts';
import type { AuthService, Viewer } from './auth.service.ts';

declare module 'express-serve-static-core' {
  interface Request {
    viewer?: Viewer;
  }
}

/** The one write the read-only maintenance credential may make: recording what a technician did. */
const MAINTENANCE_WRITES = new Set(['/api/v1/maintenanceRecord']);

/** Every /api/v1 call but the public ones goes through this. */
export function requireAuth(auth: AuthService): RequestHandler {
  return async (req, _res, next) => {
    req.viewer = await auth.authenticate(req.get('authorization'), req.get('x-act-as'));
    // The whole path: this runs under /api/v1 and under a call's own mount (its large-body parser: app.ts).
    const fullPath = (req.baseUrl + req.path).replace(/(.)\/$/, '$1');
    if (req.viewer.readOnly && req.method !== 'GET' && !(req.method === 'POST' && MAINTENANCE_WRITES.has(fullPath))) {
      throw ApiError.forbidden('The maintenance credential is read-only.');
    }
    next();
  };
}

export function viewerOf(req: Request): Viewer {
  if (!req.viewer) throw ApiError.unauthorized();
  return req.viewer;
}

/** 403 (with `refused` as its detail, when given) unless the caller's access level is one of `levels`: an endpoint's declared roles. */
export function requireRoles(levels: readonly AccessLevel[], refused?: string): RequestHandler {
  return (req, _res, next) => {
    const viewer = viewerOf(req);
    if (!levels.includes(viewer.access)) throw ApiError.forbidden(refused);
    next();
  };
}
