import { Router, type RequestHandler } from 'express';
import type { RouteDoc } from '../openapi/route-docs.ts';

/**
 * A path that cannot be percent-decoded (`/api/v1/checkUser/%ff`, a lone surrogate `%ED%A0%80`) answers 400
 * before any other check, token or not. Express's router decodes each parameter only when it matches a route,
 * and its URIError (status 400 but not `expose`d) reached the error handler as a 500 on every route with a
 * parameter; checking the whole path once here, before authentication, gives every route the same answer.
 */
export const undecodablePath: RequestHandler = (req, res, next) => {
  if (!req.path.includes('%')) return next();
  try {
    decodeURIComponent(req.path);
  } catch {
    res.status(400).json({ detail: 'The request path is not valid percent-encoding.' });
    return;
  }
  next();
};

/**
 * The JSON calls refuse a body of another type with 415 (issue 42): a text/plain, form or XML body was
 * left unparsed by `express.json`, so the route saw `undefined` and some schemas failed inside their own
 * refinements (a 500 reading 'rightPumpType' on addDevice/editDevice). The accepted types come from each
 * route's own declaration (route-docs.ts): `body` takes JSON, `multipart` takes multipart/form-data or JSON
 * (multer lets JSON through to the same schema). Calls that declare neither (the body-less POSTs) and the
 * calls `skip` names (the device gateway and the signed billing webhook, which read their own raw bodies)
 * keep their own formats. An empty body is let through, so the route's schema names the missing fields.
 */
export function declaredBodyTypes(docs: RouteDoc[], skip: (doc: RouteDoc) => boolean): Router {
  const router = Router();
  for (const doc of docs) {
    if (doc.method === 'get' || skip(doc) || !(doc.body || doc.multipart)) continue;
    const types = doc.multipart ? ['json', 'multipart/form-data'] : ['json'];
    const named = doc.multipart ? 'application/json or multipart/form-data' : 'application/json';
    router[doc.method](doc.path, (req, res, next) => {
      const length = Number(req.headers['content-length'] ?? 0);
      const hasBody = req.headers['transfer-encoding'] !== undefined || length > 0;
      if (!hasBody || req.is(types)) return next();
      res.status(415).json({ detail: `Send the request body as ${named}.` });
    });
  }
  return router;
}
