import type { Server } from 'socket.io';
import { rooms, type ServicePlanProgress } from '@fleet/shared';
import { socketTarget, type FleetIo } from '../realtime/index.ts';

type Target = { in(room: string): { emit(event: 'servicePlan:progressed', payload: ServicePlanProgress): unknown } };

/**
 * Pushes a service plan's progress to its owner's sockets (room `user:{ownerId}`, which every socket joins
 * when it connects), from whichever process recorded the maintenance: its own push server once attached,
 * else the Redis emitter (socket-target.ts).
 */
export function servicePlanEvents(
  opts: { redisUrl?: string | undefined; redisPrefix?: string; log?: (m: string, e?: unknown) => void } = {},
) {
  const sockets = socketTarget<Target>({ ...opts, name: 'service-plan' });
  return {
    progressed(ownerId: number, payload: ServicePlanProgress) {
      sockets.get()?.in(rooms.user(ownerId)).emit('servicePlan:progressed', payload);
    },
    attach: (server: FleetIo) => sockets.attach(server as unknown as Server),
    detach: (server: FleetIo) => sockets.detach(server as unknown as Server),
    close: () => sockets.close(),
  };
}
export type ServicePlanEvents = ReturnType<typeof servicePlanEvents>;
