import { createEffect, createEvent, sample, type Effect } from 'effector';
import { HttpError } from './http';

/**
 * Any authenticated call answered 401 (session gone) or 403 (account deactivated). The session model
 * turns it into "clear the session and go to / (or /?showDeactivatedModal=true)", spec section 8.
 */
export const apiAuthFailed = createEvent<{ status: 401 | 403 }>();

const isAuthFailure = (error: unknown): error is HttpError =>
  error instanceof HttpError && (error.status === 401 || error.status === 403);

/**
 * An effect for a call that carries the session token. Its 401/403 failures also reach apiAuthFailed,
 * wired with sample so it works in any scope (tests fork; the app forks one scope per tab). Public calls
 * (login, sign up, reset) use plain createEffect: a 401 at login means something else.
 */
export function createApiFx<Params, Done>(handler: (params: Params) => Promise<Done>): Effect<Params, Done, Error> {
  const fx = createEffect<Params, Done, Error>(handler);
  sample({
    clock: fx.failData,
    filter: isAuthFailure,
    fn: (error) => ({ status: error.status as 401 | 403 }),
    target: apiAuthFailed,
  });
  return fx;
}
