import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import { requestContext, requestIdOf } from './logger.ts';
import type { ProcessMetrics } from './metrics.ts';

/**
 * The operations block that leads every request (mounted first in app.ts): the request id (kept from a
 * proxy's X-Request-Id or made here, answered in X-Request-Id and carried in AsyncLocalStorage into
 * logs and into the jobs the request queues), one JSON access-log line per request, the latency
 * histogram, and the drain switch of a shutting-down process.
 */
export function opsMiddleware(opts: {
  logger: Logger;
  metrics?: ProcessMetrics;
  draining?: RequestHandler;
  quietSuccess?: boolean;
}): RequestHandler[] {
  const access = pinoHttp({
    logger: opts.logger,
    genReqId: (req, res) => {
      const id = requestIdOf(req.headers['x-request-id']);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    // The request id is already on the line (the mixin); health probes and scrapes would drown the log.
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' || req.url === '/metrics' },
    // quietSuccess (the text lines of `npm start`): a person watching the terminal sees failures, not one
    // line per check-in of the demo fleet; the JSON log of the scaled roles keeps every request.
    customLogLevel: (_req, res, err) =>
      err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : opts.quietSuccess ? 'silent' : 'info',
    serializers: {
      // Never the Authorization header or cookies; the path without its query (tokens travel there).
      req: (req: { method: string; url: string }) => ({ method: req.method, path: String(req.url).split('?')[0] }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
  });
  const withContext: RequestHandler = (req, _res, next) => {
    requestContext.run({ requestId: String(req.id) }, next);
  };
  return [
    access as unknown as RequestHandler,
    withContext,
    ...(opts.metrics ? [opts.metrics.httpMiddleware] : []),
    ...(opts.draining ? [opts.draining] : []),
  ];
}

/** Where a server listens, for the start-up line: `0.0.0.0:8080`, `[::]:8080`. */
export function describeAddress(s: Server): string {
  const a = s.address() as AddressInfo | null;
  return a ? `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}` : '?';
}
