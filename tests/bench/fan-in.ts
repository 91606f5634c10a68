/**
 * The fan-in row (issue 46): the portal's upstream polls with 1 dashboard and with 50 dashboards watching
 * the same subjects; the pollers poll a subject once a period whoever watches it (workers/src/realtime:
 * the watch registry counts watchers per subject, poller.ts polls the watched subjects), so 50 dashboards
 * should cost what one does. Target: polls(50) <= 1.05 x polls(1).
 *
 * A dashboard is a Socket.IO connection (websocket, the signed-in user's token) subscribed to what the
 * dashboard page watches: the overall overview, a device panel, its SIM log and the cards of 20 devices.
 * For each count the sockets are opened and subscribed at once; after a warm-up of `warmUp` seconds (25:
 * the longest period, 20 s, and some) the portal's own poll counter (the pollers' countPoll, per topic;
 * rest-server.ts --realtime) is read at the start and the end of a window of `seconds` (60 by default:
 * every period, 10, 15 and 20 s, fits a whole number of times). The steady state is counted, not the first
 * polls: a subject is polled at once when first watched, and the cards then join the process's round of
 * cards (poller.ts), whose phase the previous count left behind; counted from the subscriptions, one run
 * read 10 polls with 50 dashboards against 9 with one, all of it that phase. Between the counts the
 * sockets close and the subjects drop out of the registry.
 */
import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents, SubscribeAck, Subscription } from '@fleet/shared';

type Client = Socket<ServerToClientEvents, ClientToServerEvents>;
export const FANIN_TARGET = 1.05;

export type FanInRow = { sockets: number; polls: number; byTopic: Record<string, number>; events: number };

/** What one dashboard watches: the overview, the panel and SIM log of `serials[0]`, the cards of the first 20. */
export const dashboardSubscriptions = (serials: string[]): Subscription[] => [
  { topic: 'overview' },
  { topic: 'device', serial: serials[0]! },
  { topic: 'simLog', serial: serials[0]! },
  { topic: 'deviceCards', serials: serials.slice(0, 20) },
];

/** The growth of each topic's count between two readings, and their sum. */
export function pollsBetween(before: Record<string, number>, after: Record<string, number>) {
  const byTopic: Record<string, number> = {};
  for (const topic of new Set([...Object.keys(before), ...Object.keys(after)]))
    byTopic[topic] = (after[topic] ?? 0) - (before[topic] ?? 0);
  return { byTopic, polls: Object.values(byTopic).reduce((a, b) => a + b, 0) };
}

function dashboard(base: string, token: string, subscriptions: Subscription[], heard: { n: number }) {
  return new Promise<Client>((resolve, reject) => {
    const client: Client = connect(base, {
      path: '/socket.io',
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      timeout: 60_000,
    });
    client.onAny(() => void heard.n++);
    client.once('connect_error', (err) => {
      client.close();
      reject(err);
    });
    client.once('connect', async () => {
      try {
        for (const s of subscriptions)
          await new Promise<void>((ok, fail) =>
            client.emit('subscribe', s, (ack: SubscribeAck) =>
              ack.ok ? ok() : fail(new Error(`subscribe ${s.topic} refused: ${ack.error}`)),
            ),
          );
        resolve(client);
      } catch (err) {
        client.close();
        reject(err as Error);
      }
    });
  });
}

/** Upstream polls over `seconds` with each count of dashboards, one count after the other. */
export async function measureFanIn(opts: {
  base: string;
  token: string;
  serials: string[];
  polls: () => Promise<Record<string, number>>;
  counts?: number[];
  seconds?: number;
  warmUp?: number;
  log?: (m: string) => void;
}): Promise<FanInRow[]> {
  const seconds = opts.seconds ?? 60;
  const warmUp = opts.warmUp ?? 25;
  const subscriptions = dashboardSubscriptions(opts.serials);
  const rows: FanInRow[] = [];
  for (const n of opts.counts ?? [1, 50]) {
    const heard = { n: 0 };
    const started = Date.now();
    const sockets = await Promise.all(Array.from({ length: n }, () => dashboard(opts.base, opts.token, subscriptions, heard)));
    await new Promise((r) => setTimeout(r, started + warmUp * 1000 - Date.now()));
    const before = await opts.polls();
    heard.n = 0;
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const counted = pollsBetween(before, await opts.polls());
    rows.push({ sockets: n, ...counted, events: heard.n });
    opts.log?.(
      `    ${n} dashboard${n === 1 ? '' : 's'}: ${counted.polls} upstream polls in ${seconds} s after ${warmUp} s (${Object.entries(
        counted.byTopic,
      )
        .map(([t, c]) => `${t} ${c}`)
        .join(', ')}), ${heard.n} events pushed`,
    );
    for (const s of sockets) s.close();
    // The last watcher gone, the subjects drop out; a poll still running finishes before the next count.
    await new Promise((r) => setTimeout(r, 5000));
  }
  return rows;
}
