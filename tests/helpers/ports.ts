import net from 'node:net';

/**
 * Ports the operating system never hands out by itself: below Linux's ephemeral range (32768-60999 by
 * default, /proc/sys/net/ipv4/ip_local_port_range). A port taken from that range (listen on port 0, then
 * closed) could be handed out again before the test's own process listened on it: to the local end of an
 * outgoing connection, or to another test's listen(0), as supertest does for every request. A CI run once
 * had a portal's /readyz answer 200 and its next call refused, most likely another test's server answering
 * on such a port before the portal listened there.
 */
const FIRST = 20_000;
const LAST = 32_767;

const free = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

/** A TCP port free on 127.0.0.1 right now, outside the ephemeral range, for a process a test starts on its own port. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST + 1));
    if (await free(port)) return port;
  }
  throw new Error(`no free port between ${FIRST} and ${LAST} on 127.0.0.1`);
}
