import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import { Writable } from 'node:stream';
import util from 'node:util';
import { pino, type Logger } from 'pino';

/**
 * Structured logs. One pino logger per process writes JSON lines (`LOG_FORMAT=json`, the default of
 * `start:server` and `start:worker` and of production) or short readable lines (`LOG_FORMAT=text`, the
 * default of the one-command `npm start` in development, where a person reads the terminal).
 *
 * Every line written while an HTTP request is handled, and while a job that request queued runs (on
 * this process or on a worker: the queue carries the id, queue-bullmq.ts), carries that request's id:
 * the context lives in AsyncLocalStorage, so code deep inside a service or a job logs it without being
 * handed a logger.
 */
export type RequestContext = { requestId: string };
export const requestContext = new AsyncLocalStorage<RequestContext>();

/** The request id of the work running now, if any. */
export const currentRequestId = () => requestContext.getStore()?.requestId;

/** The outbox's view of the request context (mail/outbox.ts): the id to record, and how to hand a row over under it. */
export const outboxTrace = {
  current: () => currentRequestId(),
  run: <T>(requestId: string, fn: () => Promise<T>) => requestContext.run({ requestId }, fn),
};

/** An incoming X-Request-Id is kept when it looks like one (a proxy's), else a new one is made. */
export function requestIdOf(header: unknown): string {
  return typeof header === 'string' && /^[A-Za-z0-9._:-]{8,128}$/.test(header) ? header : crypto.randomUUID();
}

export type LogFormat = 'json' | 'text';
export type LogFn = (msg: string, err?: unknown) => void;

export function createLogger(opts: {
  role: string;
  format: LogFormat;
  level?: string;
  destination?: NodeJS.WritableStream;
}): Logger {
  const options = {
    level: opts.level ?? 'info',
    base: { pid: process.pid, role: opts.role },
    timestamp: pino.stdTimeFunctions.isoTime,
    // The request id of the current request or job, on every line written inside it.
    mixin: (_obj: object, _level: number, logger: Logger) => {
      const id = currentRequestId();
      // The access logger (pino-http's child) already binds it.
      return id && logger.bindings().requestId === undefined ? { requestId: id } : {};
    },
    serializers: { err: pino.stdSerializers.err },
  };
  if (opts.format === 'json')
    return pino(options, (opts.destination as pino.DestinationStream | undefined) ?? pino.destination({ fd: 1, sync: false }));
  return pino(options, textStream(opts.destination ?? process.stdout));
}

/** Readable lines for a terminal: the message, then the request id and an error's stack when present. */
function textStream(out: NodeJS.WritableStream): Writable {
  return new Writable({
    write(chunk, _enc, done) {
      try {
        const { level, msg, requestId, err } = JSON.parse(String(chunk)) as {
          level: number;
          msg?: string;
          requestId?: string;
          err?: { stack?: string; message?: string };
        };
        const prefix = level >= 50 ? 'error: ' : level === 40 ? 'warn: ' : '';
        out.write(`${prefix}${msg ?? ''}${requestId ? ` [${requestId}]` : ''}${err ? `\n${err.stack ?? err.message}` : ''}\n`);
      } catch {
        out.write(chunk);
      }
      done();
    },
  });
}

/** The `(msg, err?)` callback the rest of the code takes, writing to the logger. */
export function logFn(logger: Logger, level: 'info' | 'warn' | 'error' = 'info'): LogFn {
  return (msg, err) => {
    if (err === undefined || err === '') logger[level](msg);
    else logger.error({ err: err instanceof Error ? err : new Error(util.inspect(err)) }, msg);
  };
}

/**
 * Sends console.log/info/warn/error through the logger, so the lines of modules that print directly
 * (seed progress, the simulator) are JSON lines too. An Error among the arguments becomes `err`.
 */
export function routeConsole(logger: Logger) {
  const write =
    (level: 'info' | 'warn' | 'error') =>
    (...args: unknown[]) => {
      const err = args.find((a) => a instanceof Error) as Error | undefined;
      const rest = err ? args.filter((a) => a !== err) : args;
      const msg = util.format(...rest).trim();
      if (err) logger[level]({ err }, msg || err.message);
      else logger[level](msg);
    };
  console.log = write('info');
  console.info = write('info');
  console.warn = write('warn');
  console.error = write('error');
}
