import { pathOf, queryOf, type AnswerOf, type BodyOf, type Endpoint, type PathParams, type QueryOf } from '@fleet/shared';
import { http, httpBlob, httpBody, type HttpOptions } from './http';

type ParamsArg<E extends Endpoint> = keyof PathParams<E> extends never ? { params?: undefined } : { params: PathParams<E> };
type BodyArg<E extends Endpoint> = [BodyOf<E>] extends [never] ? { body?: undefined } : { body?: BodyOf<E> };
type QueryArg<E extends Endpoint> = [QueryOf<E>] extends [never] ? { query?: undefined } : { query?: QueryOf<E> };

/** What a call takes: its path parameters, JSON body or form, query, and the usual fetch options. */
export type CallInput<E extends Endpoint> = ParamsArg<E> &
  BodyArg<E> &
  QueryArg<E> &
  Pick<HttpOptions, 'form' | 'signal' | 'token'>;

type Args<E extends Endpoint> = keyof PathParams<E> extends never ? [input?: CallInput<E>] : [input: CallInput<E>];

function request<E extends Endpoint>(declaration: E, input: CallInput<E> | undefined): [string, HttpOptions] {
  const url = pathOf(declaration, input?.params as PathParams<E>) + queryOf(input?.query as Record<string, unknown> | undefined);
  return [
    url,
    {
      method: declaration.method.toUpperCase() as HttpOptions['method'],
      ...(input?.body !== undefined ? { json: input.body } : {}),
      ...(input?.form ? { form: input.form } : {}),
      ...(input?.signal ? { signal: input.signal } : {}),
      ...(input?.token ? { token: input.token } : {}),
    },
  ];
}

/**
 * A call to a declared endpoint (shared/src/api/): the path, method and query come from the declaration,
 * the answer is typed by its declared schema (the server's tests check every answer against that schema,
 * tests/helpers/answer-check.setup.ts). Throws HttpError for a non-2xx answer, as `http` does.
 */
export function call<E extends Endpoint>(declaration: E, ...[input]: Args<E>): Promise<AnswerOf<E>> {
  return http<AnswerOf<E>>(...request(declaration, input));
}

/** A declared call whose answer is a file (a spreadsheet, a PDF). */
export function callBlob<E extends Endpoint>(declaration: E, ...[input]: Args<E>): Promise<Blob> {
  return httpBlob(...request(declaration, input));
}

/** A declared call's answer body as it arrives, to be parsed by the caller as it comes (the pin feed, in slices). */
export function callBody<E extends Endpoint>(declaration: E, ...[input]: Args<E>): Promise<ReadableStream<Uint8Array>> {
  return httpBody(...request(declaration, input));
}
