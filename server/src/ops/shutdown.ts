import type http from 'node:http';
import net, { type Socket } from 'node:net';
import type { RequestHandler } from 'express';

export type ShutdownStep = [name: string, stop: () => unknown];

/**
 * Graceful shutdown on SIGTERM (and SIGINT), within a deadline (SHUTDOWN_TIMEOUT_MS, 10 s by default,
 * the usual grace of an orchestrator before it kills):
 *
 * 1. draining: /readyz answers 503 so the proxy stops routing here, and every answer carries
 *    `Connection: close` so keep-alive clients open their next request elsewhere;
 * 2. for a moment (SHUTDOWN_ACCEPT_MS, 1 s) the listener still accepts, so connections the kernel
 *    already queued and requests a proxy sent before it saw the 503 are answered rather than reset
 *    (and then for as long as connections queued while the process was busy keep being accepted);
 *    then it closes (no new connection is accepted) and keep-alive connections idle between requests
 *    are closed;
 * 3. Socket.IO connections are closed at the transport, not by a server `disconnect`: the browser sees
 *    'transport close' and reconnects (through the proxy, to another replica) and resubscribes, where a
 *    server disconnect would leave it disconnected for good;
 * 4. requests already accepted finish (the listener's close callback fires when the last connection ends);
 * 5. the steps run in order: schedules and pollers stop, the queue's worker finishes its active jobs
 *    (BullMQ's close waits for them; an unfinished one is picked up by another worker as stalled), then
 *    Redis and the database close;
 * 6. the process exits 0, or 1 when the deadline passed first.
 */
export function gracefulShutdown(opts: {
  timeoutMs?: number;
  /** How long the listener keeps accepting after the signal while /readyz says 503 (SHUTDOWN_ACCEPT_MS, 1 s). */
  acceptForMs?: number;
  log: (msg: string, err?: unknown) => void;
  exit?: (code: number) => void;
}) {
  let draining = false;
  let server: http.Server | undefined;
  /** Closes this process's sockets at the transport (see 3). */
  let dropSockets: (() => void) | undefined;
  const steps: ShutdownStep[] = [];
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const timeoutMs = opts.timeoutMs ?? 10_000;

  /** Connections that served a request, and how many requests each has open now. */
  const served = new Map<Socket, number>();

  async function closeListener(deadline: number) {
    if (!server) return;
    const listener = server;
    await new Promise<void>((resolve) => {
      // Keep-alive connections idle between requests are closed; every answer while draining says
      // `Connection: close`, so a connection closes after its request. A connection accepted but whose
      // request has not arrived yet is left to send it (http.Server.close would cut it with the idle
      // ones: a request the client sent and got a reset for).
      const closeIdle = () => {
        for (const [socket, open] of served) if (open === 0) socket.destroy();
      };
      const idle = setInterval(closeIdle, 50);
      const done = () => {
        clearInterval(idle);
        resolve();
      };
      net.Server.prototype.close.call(listener, () => done());
      closeIdle();
      setTimeout(
        () => {
          // Past the deadline's share for requests: whatever is still open is cut.
          listener.closeAllConnections();
          done();
        },
        Math.max(0, deadline - Date.now()),
      ).unref();
    });
  }

  /**
   * A process that was busy when the accept window's timer came due (a loaded machine, a long answer
   * being serialised) still has connections the kernel completed meanwhile waiting in the listener's
   * queue: closing the listener now would reset them (ECONNRESET for requests their clients sent in
   * time). The event loop accepts them one per turn (its poll phase), so the listener stays open for as
   * many turns (setImmediate: after the poll phase) as it goes on accepting, up to `until`.
   */
  async function acceptQueued(until: number) {
    if (!server) return;
    const listener = server;
    let accepted = true;
    const onConnection = () => {
      accepted = true;
    };
    listener.on('connection', onConnection);
    try {
      while (accepted && Date.now() < until) {
        accepted = false;
        await new Promise((r) => setImmediate(r));
      }
    } finally {
      listener.off('connection', onConnection);
    }
  }

  async function run(signal: string) {
    if (draining) return;
    draining = true;
    const started = Date.now();
    opts.log(`${signal}: draining (no new connections; finishing accepted requests and jobs; deadline ${timeoutMs} ms)`);
    const force = setTimeout(() => {
      opts.log(`shutdown: deadline of ${timeoutMs} ms passed, exiting`);
      exit(1);
    }, timeoutMs);
    force.unref();
    try {
      dropSockets?.();
      await new Promise((r) => setTimeout(r, Math.min(opts.acceptForMs ?? 1000, timeoutMs * 0.2)));
      await acceptQueued(started + timeoutMs * 0.3);
      // Requests get most of the deadline; the steps (jobs, connections) the rest.
      await closeListener(started + timeoutMs * 0.6);
      for (const [name, stop] of steps) {
        try {
          await stop();
        } catch (err) {
          opts.log(`shutdown: ${name} failed`, err);
        }
      }
      clearTimeout(force);
      opts.log(`shutdown: done in ${Date.now() - started} ms`);
      exit(0);
    } catch (err) {
      opts.log('shutdown failed', err);
      exit(1);
    }
  }

  /** While draining: /readyz answers 503 and answers close their connection. */
  const middleware: RequestHandler = (req, res, next) => {
    if (!draining) return next();
    res.set('Connection', 'close');
    if (req.path === '/readyz') {
      res.status(503).json({ status: 'draining' });
      return;
    }
    next();
  };

  return {
    middleware,
    isDraining: () => draining,
    run,
    /** The listener whose accepted requests are finished before the steps run. */
    attach(listener: http.Server, sockets?: () => void) {
      server = listener;
      dropSockets = sockets;
      listener.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
        const socket = req.socket;
        if (!served.has(socket)) socket.once('close', () => served.delete(socket));
        served.set(socket, (served.get(socket) ?? 0) + 1);
        res.once('close', () => {
          if (served.has(socket)) served.set(socket, served.get(socket)! - 1);
        });
      });
    },
    /** Steps run in the order added, after the requests. */
    add(...more: ShutdownStep[]) {
      steps.push(...more);
    },
    /** Installs the SIGTERM and SIGINT handlers. */
    install() {
      process.on('SIGTERM', () => void run('SIGTERM'));
      process.on('SIGINT', () => void run('SIGINT'));
    },
  };
}
