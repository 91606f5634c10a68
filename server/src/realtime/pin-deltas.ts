import { inArray, sql } from 'drizzle-orm';
import { rooms, type DevicePinTuple, type ServerToClientEvents } from '@fleet/shared';
import { accessOf, deviceScope } from '../access/scope.ts';
import type { Db } from '../db/client.ts';
import { devices, users } from '../db/schema.ts';
import { PIN_TUPLE_SQL } from '../devices/index.ts';
import type { NudgeSource } from '@fleet/workers';

type Emit = (room: string, event: 'pins:changed', payload: Parameters<ServerToClientEvents['pins:changed']>[0]) => void;

/** Changes gathered before one round of deltas: a burst of check-ins costs one query per watching user. */
const GATHER_MS = 200;

/**
 * The map's pin deltas (topic `pins`, event `pins:changed`, issue 46), sent from the change path: check-ins
 * and portal writes name the devices they changed (`changes`: app.pinChanges, in process or through Redis),
 * and each process sends its own sockets (io.local) the pins of those devices that are in each watching
 * user's scope, read from the database after the change, with the same scope rule as REST. Nobody
 * watching: nothing is read. A pin that reads as it was last sent is not sent again (a check-in that
 * changed no pin field), remembered per serial as a 32-bit hash of its tuple (about 60 bytes a device).
 *
 * `removed` carries only what a user may know: a device of its scope that left the map (unplaced). A device
 * taken out of a client's or a partner's scope stays on that map until its next GET /api/v1/devicePins
 * (the partner's sockets are told by partners/device-access.ts); naming it there would tell a serial to
 * someone outside its scope.
 */
export function pinDeltas(deps: {
  db: Db;
  changes: NudgeSource;
  /** User ids with a socket of this process subscribed to `pins` (from the local rooms). */
  watchers: () => number[];
  emit: Emit;
  log?: (m: string, e?: unknown) => void;
}) {
  const pending = new Set<string>();
  const sent = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();

  async function flush() {
    timer = undefined;
    const serials = [...pending];
    pending.clear();
    const ids = deps.watchers();
    if (!serials.length || !ids.length) return;
    const viewers = await deps.db
      .select({ id: users.id, role: users.role, userType: users.userType })
      .from(users)
      .where(inArray(users.id, ids));
    const at = new Date().toISOString();
    // Which pins changed since last sent: decided once for every user (the pin is the same for all of them).
    const fresh = new Set<string>();
    const gone = new Set<string>();
    for (const row of viewers) {
      const scope = deviceScope({ id: row.id, access: accessOf(row) });
      const res = (await deps.db.execute(sql`
        select ${PIN_TUPLE_SQL}::text as pin, devices.serial, devices.group_id is not null as placed
        from devices
        where ${inArray(devices.serial, serials)} and ${scope ?? sql`true`}`)) as unknown as {
        rows: { pin: string; serial: string; placed: boolean }[];
      };
      const upserts: DevicePinTuple[] = [];
      const removed: string[] = [];
      for (const r of res.rows) {
        if (!r.placed) {
          removed.push(r.serial);
          gone.add(r.serial);
          continue;
        }
        const h = hash(r.pin);
        if (sent.get(r.serial) === h && !fresh.has(r.serial)) continue;
        fresh.add(r.serial);
        sent.set(r.serial, h);
        upserts.push(JSON.parse(r.pin) as DevicePinTuple);
      }
      if (upserts.length || removed.length) deps.emit(rooms.pins(row.id), 'pins:changed', { upserts, removed, at });
    }
    for (const s of gone) sent.delete(s);
  }

  const unsubscribe = deps.changes.subscribe((serials) => {
    for (const s of serials) pending.add(s);
    timer ??= setTimeout(() => {
      running = running.then(flush).catch((err) => deps.log?.('pin deltas failed', err));
    }, GATHER_MS);
  });
  return {
    async close() {
      unsubscribe();
      clearTimeout(timer);
      await running;
    },
  };
}

/** FNV-1a, 32 bits: enough to tell a pin from its previous state (a collision only skips one delta). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
