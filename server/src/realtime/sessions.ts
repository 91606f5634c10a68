import type { Server } from 'socket.io';
import { rooms, type ServerToClientEvents, type SessionEndReason } from '@fleet/shared';
import type { FleetIo } from './socket-server.ts';
import { socketTarget } from './socket-target.ts';

export type { SessionEndReason };

/**
 * Ends sessions on the push server: every socket of a user (deactivation, password reset), or every
 * socket opened with one token (sign-out). Each socket hears `session:ended { reason }` and is then
 * disconnected by the server, so it stops receiving pushes and cannot subscribe again; its token no
 * longer authenticates, so a reconnect is refused too.
 *
 * Sockets join `user:{id}` and `session:{tokenId}` when they connect (socket-server.ts). With the Redis
 * adapter an `io.in(room)` call reaches the sockets of every process; a process without a push server
 * (a worker, a job runner, a script) reaches them through the Socket.IO Redis emitter on the adapter's
 * channel. Without Redis there is one process, and its push server is the one attached.
 */
export type SessionEnder = {
  endUserSessions(userId: number, reason: SessionEndReason): Promise<void>;
  endTokenSession(tokenId: number, reason: SessionEndReason): Promise<void>;
};

/** What can end sockets in a room: the push server, or the Redis emitter (same calls). */
type Target = {
  in(room: string): { emit(event: string, payload: unknown): unknown; disconnectSockets(close?: boolean): unknown };
};

/** The session ender of one process (see socket-target.ts for how it reaches the sockets). */
export function sessionHub(
  opts: { redisUrl?: string | undefined; redisPrefix?: string; log?: (m: string, e?: unknown) => void } = {},
) {
  const sockets = socketTarget<Target>({ ...opts, name: 'session' });

  function end(room: string, reason: SessionEndReason) {
    const t = sockets.get();
    if (!t) return;
    // The notice first: the disconnect waits for the packets already written to drain.
    t.in(room).emit('session:ended', { reason });
    t.in(room).disconnectSockets(true);
  }

  return {
    async endUserSessions(userId: number, reason: SessionEndReason) {
      end(rooms.user(userId), reason);
    },
    async endTokenSession(tokenId: number, reason: SessionEndReason) {
      end(rooms.session(tokenId), reason);
    },
    /**
     * A typed event to every socket of a user (room user:{id}), from any process: the alerts' in-app
     * channel. Answers false when no push server or Redis can reach sockets (no socket to reach).
     */
    emitToUser<E extends keyof ServerToClientEvents>(
      userId: number,
      event: E,
      ...payload: Parameters<ServerToClientEvents[E]>
    ): boolean {
      const t = sockets.get();
      if (!t) return false;
      t.in(rooms.user(userId)).emit(event, payload[0]);
      return true;
    },
    /** The push server of this process (with the Redis adapter its calls reach every process). */
    attach: (server: FleetIo) => sockets.attach(server as unknown as Server),
    detach: (server: FleetIo) => sockets.detach(server as unknown as Server),
    close: () => sockets.close(),
  } satisfies SessionEnder & Record<string, unknown>;
}
export type SessionHub = ReturnType<typeof sessionHub>;
