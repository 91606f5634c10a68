import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { gracefulShutdown } from './shutdown.ts';

/**
 * A busy process (a loaded machine, a long answer being serialised) reaches the end of the accept window
 * late, with connections the kernel completed meanwhile still waiting in the listener's queue. They are
 * accepted and answered before the listener closes: closing it first would reset them (the clients see
 * ECONNRESET for requests they sent in time). CI saw that once on a loaded machine.
 */
describe('graceful shutdown', () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((r) => server?.close(() => r(undefined)) ?? r(undefined));
  });

  it('answers the connections queued while the event loop was busy past the accept window', async () => {
    server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    let exitCode: number | null = null;
    const exited = new Promise<void>((resolve) => {
      const shutdown = gracefulShutdown({
        acceptForMs: 100,
        timeoutMs: 5_000,
        log: () => undefined,
        exit: (code) => {
          exitCode = code;
          resolve();
        },
      });
      shutdown.attach(server!);
      void shutdown.run('SIGTERM');
    });

    const outcomes = Array.from(
      { length: 5 },
      () =>
        new Promise<number | string>((resolve) => {
          const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
          });
          req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
        }),
    );
    // The clients' connects are issued; the kernel completes them while this process is busy, past the
    // 100 ms accept window, so the window's timer and the queued connections are due at the same turn.
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        const until = Date.now() + 300;
        while (Date.now() < until);
        resolve();
      }),
    );
    expect(await Promise.all(outcomes)).toEqual([200, 200, 200, 200, 200]);
    await exited;
    expect(exitCode).toBe(0);
    server = undefined;
  });
});
