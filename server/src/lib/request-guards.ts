import type { RequestHandler } from 'express';

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
