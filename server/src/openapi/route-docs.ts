import { z } from 'zod';
import type { Endpoint } from '@fleet/shared';

/**
 * What a route declares about itself for the OpenAPI document: the endpoint declaration of shared/src/api/
 * (issue 45). Features register their routes from those declarations with `endpointRoutes`
 * (endpoint-routes.ts), which lists them here.
 */
export type RouteDoc = Endpoint;

export type Routes = {
  router: import('express').Router;
  docs: RouteDoc[];
  /** Routers at their own path outside /api/v1 (e.g. POST /api/pdf), behind the same token, parsing their own bodies. */
  mounts?: { path: string; router: import('express').Router }[];
  /** Routers at their own path without the token (a signed webhook), parsing their own bodies. */
  publicMounts?: { path: string; router: import('express').Router }[];
};

const jsonSchema = (schema: z.ZodType, io: 'input' | 'output') => {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
};

/** Builds an OpenAPI 3.1 document from the routes' declarations. */
export function buildOpenApi(docs: RouteDoc[], info: { title: string; version: string; description?: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const d of docs) {
    const path = d.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const params = [...d.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    const query = d.query
      ? Object.entries((jsonSchema(d.query, 'input').properties ?? {}) as Record<string, unknown>).map(([name, schema]) => ({
          name,
          in: 'query',
          required: false,
          schema,
        }))
      : [];
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(d.responses ?? { 200: { description: 'OK' } })) {
      responses[status] = r.schema
        ? { description: r.description, content: { 'application/json': { schema: jsonSchema(r.schema, 'output') } } }
        : { description: r.description };
    }
    if ((d.auth ?? 'token') !== 'none') {
      responses['401'] ??= { description: 'Missing or invalid credentials' };
      if ((d.auth ?? 'token') === 'token')
        responses['403'] ??= { description: 'Account deactivated, or the action is not allowed for this role' };
    }
    if (d.body || d.multipart) responses['400'] ??= { description: 'Invalid input: `{ field: [messages] }` or `{ detail }`' };
    const requestBody = d.body
      ? { required: true, content: { 'application/json': { schema: jsonSchema(d.body, 'input') } } }
      : d.multipart
        ? { required: true, content: { 'multipart/form-data': { schema: jsonSchema(d.multipart, 'input') } } }
        : undefined;
    (paths[path] ??= {})[d.method] = {
      summary: d.summary,
      ...(d.description ? { description: d.description } : {}),
      tags: [d.tag],
      ...(params.length || query.length ? { parameters: [...params, ...query] } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
      ...(d.roles ? { 'x-roles': [...d.roles] } : {}),
      security: (d.auth ?? 'token') === 'none' ? [] : d.auth === 'device' ? [{ deviceAuth: [] }] : [{ tokenAuth: [] }],
    };
  }
  return {
    openapi: '3.1.0',
    info,
    paths,
    components: {
      securitySchemes: {
        tokenAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description: 'Token <key> from POST /auth/token/login/',
        },
        deviceAuth: { type: 'http', scheme: 'basic', description: 'Device serial and device secret' },
      },
    },
  };
}

/** A page that renders the document without any script from outside (no network here or needed). */
export function docsPage(title: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1f2933;background:#f6f8fa}
header{background:#0f3d5e;color:#fff;padding:16px 24px}h1{margin:0;font-size:20px}
main{max-width:1100px;margin:0 auto;padding:16px 24px}
details{background:#fff;border:1px solid #d9e2ec;border-radius:8px;margin:8px 0}
summary{padding:10px 14px;cursor:pointer;display:flex;gap:12px;align-items:center}
summary:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.m{font:600 12px monospace;padding:2px 8px;border-radius:4px;color:#fff;min-width:48px;text-align:center}
.get{background:#2f855a}.post{background:#2b6cb0}.put{background:#b7791f}.delete{background:#c53030}
code{font-family:ui-monospace,monospace}pre{background:#0b1f2e;color:#e6edf3;padding:12px;border-radius:6px;overflow:auto;margin:0 14px 14px}
h2{font-size:16px;margin:24px 0 4px}p.d{margin:0 14px 8px;color:#52606d}
</style></head><body><header><h1>${title}</h1><div>OpenAPI 3.1: <a style="color:#fff" href="/api/openapi.json">/api/openapi.json</a></div></header>
<main id="root">Loading…</main>
<script>
fetch('/api/openapi.json').then(r=>r.json()).then(doc=>{
  const root=document.getElementById('root');root.textContent='';
  const byTag={};
  for(const [p,ops] of Object.entries(doc.paths))for(const [m,op] of Object.entries(ops))(byTag[op.tags[0]]??=[]).push([m,p,op]);
  for(const [tag,ops] of Object.entries(byTag)){
    const h=document.createElement('h2');h.textContent=tag;root.append(h);
    for(const [m,p,op] of ops){
      const d=document.createElement('details');const s=document.createElement('summary');
      const b=document.createElement('span');b.className='m '+m;b.textContent=m.toUpperCase();
      const c=document.createElement('code');c.textContent=p;const t=document.createElement('span');t.textContent=op.summary;
      s.append(b,c,t);d.append(s);
      if(op.description){const x=document.createElement('p');x.className='d';x.textContent=op.description;d.append(x)}
      const pre=document.createElement('pre');pre.textContent=JSON.stringify({parameters:op.parameters,requestBody:op.requestBody,responses:op.responses},null,2);d.append(pre);
      root.append(d);
    }
  }
});
</script></body></html>`;
}
