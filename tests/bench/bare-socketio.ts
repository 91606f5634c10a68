/**
 * The floor for push memory: a bare Socket.IO 4 server (no auth, no rooms, no app) in a child process
 * holding N idle websocket clients from this process; prints its RSS growth per socket, and what its
 * heap and external memory hold more after a full collection (the steadier measure: RSS keeps pages
 * a collection freed, and new sockets may fill those without RSS moving).
 *
 *   npx tsx tests/bench/bare-socketio.ts --sockets 2000
 * Used by npm run bench (tests/bench/run-all.ts) beside tests/load/push.bench.ts's capacity round.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Server } from 'socket.io';
import { io } from 'socket.io-client';

const i = process.argv.indexOf('--sockets');
const sockets = i > 0 ? Number(process.argv[i + 1]) : 2000;

if (process.argv.includes('--serve')) {
  const server = http.createServer();
  new Server(server, { transports: ['websocket'] }).on('connection', () => undefined);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.send!({ port: (server.address() as AddressInfo).port });
  process.on('message', (m) => {
    if (m === 'rss') {
      (globalThis as { gc?: () => void }).gc?.();
      const m = process.memoryUsage();
      process.send!({ rss: { rss: m.rss, held: m.heapUsed + m.external } });
    }
    if (m === 'stop') process.exit(0);
  });
} else {
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], { execArgv: ['--import', 'tsx', '--expose-gc'] });
  const ask = <T>(key: string, message?: string) =>
    new Promise<T>((resolve) => {
      const on = (m: Record<string, T>) => {
        if (m[key] === undefined) return;
        child.off('message', on);
        resolve(m[key]!);
      };
      child.on('message', on);
      if (message) child.send(message);
    });
  const port = await ask<number>('port');
  await new Promise((r) => setTimeout(r, 500));
  type Memory = { rss: number; held: number };
  const before = await ask<Memory>('rss', 'rss');
  const clients = [];
  for (let at = 0; at < sockets; at += 200) {
    const batch = Array.from({ length: Math.min(200, sockets - at) }, () =>
      io(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false }),
    );
    await Promise.all(batch.map((c) => new Promise<void>((r, j) => (c.once('connect', () => r()), c.once('connect_error', j)))));
    clients.push(...batch);
  }
  await new Promise((r) => setTimeout(r, 1000));
  const after = await ask<Memory>('rss', 'rss');
  const perSocket = (after.rss - before.rss) / 1024 / sockets;
  const heldPerSocket = (after.held - before.held) / 1024 / sockets;
  console.log(
    `bare Socket.IO: ${sockets} sockets, server RSS ${(before.rss / 1048576).toFixed(0)} -> ${(after.rss / 1048576).toFixed(0)} MB`,
  );
  console.log(`RESULT bare_socketio_kb_per_socket=${perSocket.toFixed(1)}`);
  console.log(`RESULT bare_socketio_held_kb_per_socket=${heldPerSocket.toFixed(1)}`);
  for (const c of clients) c.close();
  child.send('stop');
}
