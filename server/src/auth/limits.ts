import crypto from 'node:crypto';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { ApiError } from '../lib/errors.ts';

/**
 * Attempt counters for the public auth calls (sign-in, sign-up, password-reset mail, role lookup).
 *
 * Every attempt is counted BEFORE the slow password check, with one atomic increment in the store
 * (rate-limiter-flexible: a Lua INCR+PEXPIRE in Redis, a synchronous map update in memory), so 100
 * parallel wrong passwords cannot all pass a check that none of them has counted yet.
 *
 * With Redis the counters are shared by every process and outlive a restart. Redis being down must not
 * take sign-in down with it: the client is built without an offline queue (a command fails at once
 * instead of waiting), and each Redis limiter is insured by an in-memory one of the same shape, which
 * counts until Redis is back. Without Redis (the one-process embedded run) the counters live in memory:
 * a restart forgets them, which the embedded run accepts (it is one process a developer restarts).
 */
export type Limits = ReturnType<typeof authLimits>;

export type LoginLimitConfig = {
  /** Failed sign-ins per email from one address within the window. */
  perEmail: number;
  /** Sign-ins per address within the window, whatever the email (a spray of emails). */
  perAddress: number;
  windowSeconds: number;
  /** Sign-ins per email from addresses it never signed in from, within the window (a spray of addresses). */
  perEmailAnyAddress?: number;
  /** A known address whose email+address counter is spent may try again after this many seconds. */
  backoffSeconds?: number;
};

export type ThrottleConfig = { points: number; durationSeconds: number };

/** Where counters live: Redis (shared by every process, insured in memory while Redis is down), else memory. */
export type LimiterStore = { redis?: Redis | undefined; prefix?: string };

/** One counter of `points` per `duration` seconds, in the store described above. */
export function rateLimiter(store: LimiterStore, name: string, points: number, duration: number): RateLimiterAbstract {
  const prefix = store.prefix ?? 'fleet:limit:';
  return store.redis
    ? new RateLimiterRedis({
        storeClient: store.redis,
        keyPrefix: `${prefix}${name}`,
        points,
        duration,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: name, points, duration }),
      })
    : new RateLimiterMemory({ keyPrefix: name, points, duration });
}

/** 429 with Retry-After, the detail saying what and when. */
function tooMany(ms: number, what: string): ApiError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new ApiError(429, { detail: `${what} Try again in ${seconds} seconds.` }, { 'Retry-After': String(seconds) });
}

/**
 * A quota of `points` per `durationSeconds` per key, taken n at a time: a take that does not fit answers 429
 * (detail `what`, Retry-After) and spends nothing, so a refused call does not shorten the quota.
 */
export function quota(store: LimiterStore, name: string, cfg: ThrottleConfig, what: string) {
  const limiter = rateLimiter(store, name, cfg.points, cfg.durationSeconds);
  return {
    async take(key: string, n: number): Promise<void> {
      if (n <= 0) return;
      try {
        await limiter.consume(key, n);
      } catch (res) {
        if (!(res instanceof RateLimiterRes)) throw res;
        await limiter.reward(key, n).catch(() => undefined);
        throw tooMany(Math.max(1, res.msBeforeNext), what);
      }
    },
  };
}
export type Quota = ReturnType<typeof quota>;

export function authLimits(opts: {
  login: LoginLimitConfig;
  /** Reset mails per email, and reset requests per address. */
  resetPerEmail?: ThrottleConfig;
  resetPerAddress?: ThrottleConfig;
  /** Role lookups per address. */
  checkUserPerAddress?: ThrottleConfig;
  /** Sign-up requests per address, and per email from any address. */
  signUpPerAddress?: ThrottleConfig;
  signUpPerEmail?: ThrottleConfig;
  /** A client made with `enableOfflineQueue: false` (see above) and an error listener. */
  redis?: Redis | undefined;
  prefix?: string;
}) {
  const make = (name: string, points: number, duration: number) => rateLimiter(opts, name, points, duration);

  const l = opts.login;
  const window = l.windowSeconds;
  const pair = make('login-pair', l.perEmail, window);
  const address = make('login-address', l.perAddress, window);
  const email = make('login-email', l.perEmailAnyAddress ?? l.perEmail * 3, window);
  const backoff = make('login-backoff', 1, l.backoffSeconds ?? 30);
  // An address an email signed in from: one point, renewed by each sign-in. Stored like a limiter. 20
  // days: the memory store keeps each key with a setTimeout, which overflows past 24.8 days.
  const KNOWN_SECONDS = 20 * 86_400;
  const known = make('login-known', 1, KNOWN_SECONDS);
  const resetEmail = make('reset-email', opts.resetPerEmail?.points ?? 3, opts.resetPerEmail?.durationSeconds ?? 3600);
  const resetAddress = make('reset-address', opts.resetPerAddress?.points ?? 20, opts.resetPerAddress?.durationSeconds ?? 3600);
  // Sign-up: 10 an hour per address and 3 an hour per email (issue 42: 200 sign-ups from one address in 39 s
  // filled the distributor's request list, and their password hashing slowed every other request).
  const signUpAddress = make(
    'signup-address',
    opts.signUpPerAddress?.points ?? 10,
    opts.signUpPerAddress?.durationSeconds ?? 3600,
  );
  const signUpEmail = make('signup-email', opts.signUpPerEmail?.points ?? 3, opts.signUpPerEmail?.durationSeconds ?? 3600);
  const checkUser = make('check-user', opts.checkUserPerAddress?.points ?? 30, opts.checkUserPerAddress?.durationSeconds ?? 60);

  /** Keys hold an email and an address: stored hashed, so Redis holds neither. */
  const key = (...parts: string[]) => crypto.createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 32);

  /** Consumes one point of each; answers the longest wait (ms) among those already spent, or 0. */
  async function consume(...pairs: [RateLimiterAbstract, string][]): Promise<number> {
    const waits = await Promise.all(
      pairs.map(([limiter, k]) =>
        limiter.consume(k).then(
          () => 0,
          (res: unknown) => {
            if (res instanceof RateLimiterRes) return Math.max(1, res.msBeforeNext);
            throw res;
          },
        ),
      ),
    );
    return Math.max(0, ...waits);
  }

  async function isKnown(e: string, a: string) {
    const res = await known.get(key(e, a)).catch(() => null);
    return !!res && res.consumedPoints > 0;
  }

  return {
    /**
     * Counts a sign-in attempt before the password is checked; throws 429 with Retry-After when spent.
     * Limits by email and address together, so a stranger failing for a distributor's email from
     * elsewhere does not lock the distributor out. An address the email signed in from before is not
     * held to the per-email limit across addresses, and once its own counter is spent it waits a short
     * back-off (one try per backoffSeconds) rather than the whole window.
     * The per-email limit across unknown addresses (perEmailAnyAddress) is the price of stopping a
     * spray of addresses: while someone attacks an account, a NEW address of its owner may have to wait
     * the window out; every address the owner signed in from keeps working.
     * Answers what to call with the outcome.
     */
    async loginAttempt(e: string, a: string): Promise<{ succeeded(): Promise<void> }> {
      const pairKey = key(e, a);
      const familiar = await isKnown(e, a);
      const counted: [RateLimiterAbstract, string][] = [
        [pair, pairKey],
        [address, key(a)],
      ];
      if (!familiar) counted.push([email, key(e)]);
      const wait = await consume(...counted);
      if (wait > 0) {
        if (!familiar) throw tooMany(wait, 'Too many login attempts.');
        const soon = await consume([backoff, pairKey]);
        if (soon > 0) throw tooMany(soon, 'Too many login attempts.');
      }
      return {
        async succeeded() {
          // The right password: this pair starts over, the shared counters give back this attempt,
          // and the address becomes known for this email.
          await Promise.allSettled([
            pair.delete(pairKey),
            backoff.delete(pairKey),
            address.reward(key(a), 1),
            ...(familiar ? [] : [email.reward(key(e), 1)]),
            known.set(pairKey, 1, KNOWN_SECONDS),
          ]);
        },
      };
    },

    /** A password-reset request: mails per email, requests per address. */
    async resetRequest(e: string, a: string): Promise<void> {
      const wait = await consume([resetAddress, key(a)], [resetEmail, key(e)]);
      if (wait > 0) throw tooMany(wait, 'Too many password reset requests.');
    },

    /** A sign-up request, counted before its password is hashed: per address, and per email from any address. */
    async signUp(e: string, a: string): Promise<void> {
      const wait = await consume([signUpAddress, key(a)], [signUpEmail, key(e)]);
      if (wait > 0) throw tooMany(wait, 'Too many sign-up requests from this address or for this email.');
    },

    /** The login screen's role lookup, per address (it tells whether an email has an account). */
    async checkUser(a: string): Promise<void> {
      const wait = await consume([checkUser, key(a)]);
      if (wait > 0) throw tooMany(wait, 'Too many requests.');
    },
  };
}
