import type { z } from 'zod';
import type { AccessLevel } from '../rules/access.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'delete';

/** One answer of a call: what it means and, for a JSON answer, the schema it has. */
export type EndpointAnswer = { readonly description: string; readonly schema?: z.ZodType };

/**
 * One HTTP call, declared once (issue 45, docs/decisions/endpoint-contract.md): the server registers its
 * route and its role check from this (server/src/openapi/endpoint-routes.ts), the OpenAPI document is built
 * from it (server/src/openapi/route-docs.ts), the client calls it typed (client/src/shared/api/call.ts), and
 * the integration tests check every answer against `responses[status].schema`.
 */
export type Endpoint = {
  readonly method: HttpMethod;
  /** The full path in Express style, e.g. /api/v1/device/:serial. */
  readonly path: string;
  readonly summary: string;
  /** The OpenAPI tag (the group on /api/docs). */
  readonly tag: string;
  readonly description?: string;
  /** 'token' (Authorization: Token <key>, the default), 'none', or 'device' (gateway credentials). */
  readonly auth?: 'token' | 'none' | 'device';
  /**
   * The access levels that may call it (checked by the server before validation: a caller who may not call
   * hears 403 whatever the body holds). Absent: every signed-in user; data-dependent checks (a partner's own
   * devices) stay in the services.
   */
  readonly roles?: readonly AccessLevel[];
  /** The 403 detail for a refused role, when it is not the default one. */
  readonly refused?: string;
  /** JSON body. */
  readonly body?: z.ZodType;
  /** multipart/form-data body (file uploads); JSON with the same fields is accepted too. */
  readonly multipart?: z.ZodType;
  readonly query?: z.ZodType;
  /** Answers by status; the 2xx one with a schema is the call's typed answer. */
  readonly responses?: { readonly [status: number]: EndpointAnswer };
};

/** Declares an endpoint, keeping its literal path and schemas in the type (for typed params and answers). */
export const endpoint = <const E extends Endpoint>(declaration: E): E => declaration;

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** The path parameters of an endpoint, by name (`/device/:serial` -> { serial }). */
export type PathParams<E extends Endpoint> = { [K in ParamNames<E['path']>]: string | number };

type SchemaOf<R> = R extends { readonly schema: infer S extends z.ZodType } ? S : undefined;
type OkSchema<R> = R extends { readonly 200: infer A }
  ? SchemaOf<A>
  : R extends { readonly 201: infer A }
    ? SchemaOf<A>
    : R extends { readonly 202: infer A }
      ? SchemaOf<A>
      : undefined;

/** The answer of a successful call, as its declared schema has it (unknown when it declares none). */
export type AnswerOf<E extends Endpoint> = OkSchema<E['responses']> extends infer S extends z.ZodType ? z.output<S> : unknown;

/** The JSON body a call takes, as its declared schema accepts it. */
export type BodyOf<E extends Endpoint> = E extends { readonly body: infer S extends z.ZodType }
  ? z.input<S>
  : E extends { readonly multipart: infer S extends z.ZodType }
    ? z.input<S>
    : never;

/** The query a call takes, as its declared schema accepts it. */
export type QueryOf<E extends Endpoint> = E extends { readonly query: infer S extends z.ZodType } ? z.input<S> : never;

/** The path of a call with its parameters filled in, each percent-encoded. */
export function pathOf<E extends Endpoint>(declaration: E, params?: PathParams<E>): string {
  return declaration.path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    const value = (params as Record<string, string | number> | undefined)?.[name];
    if (value === undefined) throw new Error(`${declaration.path}: parameter ${name} is missing`);
    return encodeURIComponent(String(value));
  });
}

/** The query string of a call (with its leading `?`, or empty): undefined and null values are left out. */
export function queryOf(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
