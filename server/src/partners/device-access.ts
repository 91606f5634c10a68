import { rooms } from '@fleet/shared';
import { socketTarget } from '../realtime/index.ts';
import type { DeviceAccessNotifier } from './partners.service.ts';

/** What can move sockets out of rooms: the push server, or the Socket.IO Redis emitter (same call). */
type Target = { in(room: string): { socketsLeave(rooms: string[]): unknown } };

/**
 * Takes devices out of one user's live subscriptions when a distributor removes them from that market
 * partner: every socket of the user (room `user:{id}`, joined on connect) leaves the devices' rooms
 * (`device:`, `devices:`, `simLog:`), so the next push of those devices no longer reaches it. A new
 * subscription is checked against the scope again, so it is refused. Reaches every process's sockets
 * through realtime/socket-target.ts, like the session ender.
 */
export function deviceAccessHub(
  opts: { redisUrl?: string | undefined; redisPrefix?: string; log?: (m: string, e?: unknown) => void } = {},
) {
  const target = socketTarget<Target>({ ...opts, name: 'device access' });
  return {
    async revokeDevices(userId: number, serials: string[]) {
      const t = target.get();
      if (!t || !serials.length) return;
      await t
        .in(rooms.user(userId))
        .socketsLeave(serials.flatMap((s) => [rooms.device(s), rooms.deviceCards(s), rooms.simLog(s)]));
    },
    attach: target.attach,
    detach: target.detach,
    close: target.close,
  } satisfies DeviceAccessNotifier & Record<string, unknown>;
}
export type DeviceAccessHub = ReturnType<typeof deviceAccessHub>;
