import Dexie, { type EntityTable } from 'dexie';
import type { MaintenanceDevice, MaintenanceRecord, MaintenanceRecordInput } from '@fleet/shared';
import { HttpError } from '../../shared/api';
import { maintenanceCalls } from './api';

/**
 * The field app's records on the phone (IndexedDB through Dexie): each is kept, in the order made, with
 * its idempotency key, until the server stores it (then it goes, unless the answer carries warnings) or
 * refuses it (then it stays, with the reason, until the technician has read it). A record stored with
 * warnings (a refill from a batch recalled while the phone had no signal: issue 44's decision) stays too,
 * as 'warned' with the server's warnings in words, until read: the phone is where the technician hears it. A record sent twice (the answer lost on a bad signal) is
 * stored once: the server answers the first with the same key.
 */
export type OutboxEntry = {
  seq?: number;
  key: string;
  serial: string;
  /** What the list shows: the device's name when it was made. */
  label: string;
  body: MaintenanceRecordInput & { idempotency_key: string; performed_at: string };
  /** waiting to be sent; refused by the server (`reason`: why); stored with warnings (`reason`: the warnings). */
  status: 'waiting' | 'refused' | 'warned';
  reason: string | null;
  createdAt: string;
};

/** The reads kept on the phone: the device list, the day's plans and their devices, the batches. */
export type SnapshotName = 'devices' | 'plans' | 'planDevices' | 'batches';

type FieldDb = Dexie & {
  outbox: EntityTable<OutboxEntry, 'seq'>;
  /** The last answers the server gave (SnapshotName), for a start without signal. */
  snapshots: EntityTable<{ name: string; at: string; value: unknown }, 'name'>;
};

let opened: FieldDb | null = null;
const db = (): FieldDb => {
  if (!opened) {
    opened = new Dexie('fleet-field-app') as FieldDb;
    opened.version(1).stores({ outbox: '++seq, key, status', snapshots: 'name' });
  }
  return opened;
};

export const outbox = {
  async add(entry: Omit<OutboxEntry, 'seq' | 'status' | 'reason' | 'createdAt'>): Promise<OutboxEntry> {
    const row: OutboxEntry = { ...entry, status: 'waiting', reason: null, createdAt: new Date().toISOString() };
    row.seq = await db().outbox.add(row);
    return row;
  },
  list: (): Promise<OutboxEntry[]> => db().outbox.orderBy('seq').toArray(),
  remove: async (seq: number) => void (await db().outbox.delete(seq)),

  /**
   * Sends the waiting records in the order made. Stops at the first that cannot reach the server (no
   * signal, the server down, the credential refused: they wait for the next try); a record the server
   * refuses (400, 404, 409) is kept as refused with its reason and the next is sent.
   */
  async send(token: string): Promise<{ sent: MaintenanceRecord[]; refused: number }> {
    const sent: MaintenanceRecord[] = [];
    let refused = 0;
    for (const entry of await db().outbox.where('status').equals('waiting').sortBy('seq')) {
      try {
        const record = await maintenanceCalls.record(entry.body, token);
        sent.push(record);
        if (record.warnings.length) await db().outbox.update(entry.seq!, { status: 'warned', reason: record.warnings.join(' ') });
        else await db().outbox.delete(entry.seq!);
      } catch (error) {
        if (!(error instanceof HttpError) || ![400, 404, 409, 413].includes(error.status)) break;
        refused++;
        await db().outbox.update(entry.seq!, { status: 'refused', reason: refusalText(error) });
      }
    }
    return { sent, refused };
  },

  saveDevices: (list: MaintenanceDevice[]) => outbox.save('devices', list),
  async savedDevices(): Promise<{ at: string; list: MaintenanceDevice[] } | null> {
    const row = await outbox.saved<MaintenanceDevice[]>('devices');
    return row ? { at: row.at, list: row.value } : null;
  },
  /** What the app read last under a name (the day's plans, their devices, the batches), for a start without signal. */
  save: async (name: SnapshotName, value: unknown) =>
    void (await db().snapshots.put({ name, at: new Date().toISOString(), value })),
  saved: async <T>(name: SnapshotName): Promise<{ at: string; value: T } | null> => {
    const row = await db().snapshots.get(name);
    return row ? { at: row.at, value: row.value as T } : null;
  },
};

/** The server's reason in words: its field messages (`{"serial": ["No device with this serial."]}`) or detail. */
function refusalText(error: HttpError): string {
  const body = error.body as Record<string, unknown> | null;
  if (error.detail) return error.detail;
  const messages = body ? Object.values(body).flatMap((v) => (Array.isArray(v) ? v.map(String) : [])) : [];
  return messages.join(' ') || `Refused by the server (HTTP ${error.status}).`;
}
