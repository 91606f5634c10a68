import crypto from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/** Where the Google Maps provider loads from (only allowed when GOOGLE_MAPS_API_KEY is set). */
const GOOGLE = [
  'https://maps.googleapis.com',
  'https://maps.gstatic.com',
  'https://*.googleapis.com',
  'https://*.gstatic.com',
  'https://*.google.com',
];

type HeaderConfig = { publicUrl: string; mapStyleUrl?: string | undefined; googleMapsApiKey?: string | undefined };

/**
 * Security headers on every answer (helmet): pages and API alike.
 *
 * Content-Security-Policy: scripts only from this origin (no inline script, no eval), so an injected
 * `<script>` or `onerror=` never runs and a stolen-token script has nowhere to come from; connections
 * only to this origin (REST and the Socket.IO websocket), so even a script that did run could not send
 * the token elsewhere. Styles allow 'unsafe-inline' because MapLibre and ApexCharts write style
 * elements at run time (styles cannot run code). The offline map needs `blob:` workers (MapLibre's
 * worker) and `blob:`/`data:` images; an operator's MAP_STYLE_URL on another origin is added to what may
 * be fetched; the Google provider's origins only when a key is configured. SECURITY.md says why the
 * session token stays readable by the page and what this policy does about it.
 *
 * frame-ancestors 'none' and X-Frame-Options DENY: the portal is never framed (clickjacking).
 * Referrer-Policy no-referrer: a reset link (`/?token=...`) never leaks in a Referer header.
 * HSTS and upgrade-insecure-requests only when the portal is served over https (PUBLIC_URL): on plain
 * http (the development default) they would break same-origin requests.
 *
 * The headers are helmet's, worked out once: none of them depends on the request (no nonce, no function
 * in a directive), and helmet's chain of a dozen middlewares rebuilt the policy's text on every answer
 * (with `compression`'s wrapper, 10-20 % fewer answers a second for a small JSON call than bare Express:
 * tests/bench/middleware.bench.ts; the same headers set once cost next to nothing).
 */
export function securityHeaders(config: HeaderConfig): RequestHandler {
  return fixedHeaders(helmet(helmetOptions(config)));
}

/** helmet's options for this portal (tests/bench/middleware.bench.ts measures helmet itself with them). */
export function helmetOptions(config: HeaderConfig): HelmetOptions {
  const https = config.publicUrl.startsWith('https://');
  const styleOrigin = config.mapStyleUrl && /^https?:\/\//i.test(config.mapStyleUrl) ? [new URL(config.mapStyleUrl).origin] : [];
  const googleMaps = !!config.googleMapsApiKey;
  const google = googleMaps ? GOOGLE : [];
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...google],
        styleSrc: ["'self'", "'unsafe-inline'", ...(googleMaps ? ['https://fonts.googleapis.com'] : [])],
        imgSrc: ["'self'", 'data:', 'blob:', ...styleOrigin, ...google],
        fontSrc: ["'self'", 'data:', ...(googleMaps ? ['https://fonts.gstatic.com'] : [])],
        connectSrc: ["'self'", ...styleOrigin, ...google],
        workerSrc: ["'self'", 'blob:'],
        childSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    // The map's workers and the report downloads are same-origin; nothing here is meant to be embedded.
    crossOriginResourcePolicy: { policy: 'same-origin' },
  };
}

/**
 * A middleware that sets, on every answer, the headers `middleware` sets and removes those it removes,
 * read once from a stand-in answer (helmet's middlewares only set and remove headers, whatever the request).
 */
function fixedHeaders(middleware: RequestHandler): RequestHandler {
  const set = new Map<string, string | number | readonly string[]>();
  const removed = new Set<string>();
  const stand = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.set(name, value);
      removed.delete(name.toLowerCase());
      return stand;
    },
    removeHeader(name: string) {
      set.delete(name);
      removed.add(name.toLowerCase());
    },
  };
  let failed: unknown = null;
  void middleware(
    { method: 'GET', url: '/', headers: {} } as Request,
    stand as unknown as Response,
    (err?: unknown) => void (failed = err ?? null),
  );
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  const headers = [...set];
  const drop = [...removed];
  return (_req, res, next) => {
    for (const name of drop) res.removeHeader(name);
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/**
 * The policy of a server-written page with inline scripts (the API docs page): those exact scripts by
 * their hash, nothing else.
 */
export function inlinePageCsp(html: string): string {
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    (m) => `'sha256-${crypto.createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
  return `default-src 'self'; script-src ${hashes.join(' ') || "'none'"}; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'`;
}
