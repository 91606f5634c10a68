import type { SQL } from 'drizzle-orm';
import { joinBytes } from '../lib/cached-json.ts';
import { deflatePiece, deflatePieceSync, GzipJoin, type DeflatedPiece } from '../lib/gzip-pieces.ts';
import { chunkedAnswer, type StreamedJson } from '../lib/streamed-json.ts';

/**
 * Sites a piece covers: piece k holds the devices of sites k*PIECE_SITES to (k+1)*PIECE_SITES - 1 (site ids,
 * so a piece's key does not move when devices or sites are added). 16 sites: at 100,000 devices on 10,000
 * sites, 625 pieces of about 185 kB of text. Smaller pieces are read again less often when changes are spread
 * over the fleet (check-ins at 100/s over 2 s touch about 200 sites: with 16 a piece, about a quarter of the
 * pieces) but compress a little worse, each starting with an empty dictionary.
 */
export const PIECE_SITES = 16;
/** Pieces a database read takes at most (about 1,600 devices at 10 a site). */
const READ_PIECES = 6;
/** Reads asked for at once: one on each of two connections while the one before is compressed. */
const READS_AHEAD = 2;
/** Compressed bytes the kept pieces of every scope may hold together; the scope used longest ago goes first. */
const MAX_BYTES = 48 * 1024 * 1024;

/** What the kept list reads (devices.repository.ts). */
export type KeptListSource = {
  /** The list version of each piece: the greatest of its sites' (site_list_versions, migration 0026). */
  listPieceVersions(pieceSites: number): Promise<Map<number, bigint>>;
  /**
   * The list answers of the placed devices in scope on the sites of pieces `from` to `to - 1`, in the list's
   * order, by piece (a piece with no device in scope is absent).
   */
  listPieceRows(scope: SQL | undefined, from: number, to: number, pieceSites: number): Promise<Map<number, string[]>>;
  /** The pieces holding a placed device in scope (a client's or a market partner's: a few of the fleet's). */
  listScopePieces(scope: SQL, pieceSites: number): Promise<Set<number>>;
};

type Kept = { version: bigint; piece: DeflatedPiece };
type ScopePieces = { pieces: Map<number, Kept>; bytes: number; used: number };

export type KeptLists = {
  /** The whole list of a scope as gzip, current as of this call: only the pieces whose version moved are read. */
  read(key: string, scope: SQL | undefined): StreamedJson;
  /** Compressed bytes kept, all scopes. */
  bytes(): number;
  /** Pieces read from the database and compressed since this store was made (for tests and benchmarks). */
  piecesRead(): number;
};

const OPEN = deflatePieceSync(Buffer.from('['));
const CLOSE = deflatePieceSync(Buffer.from(']'));

/**
 * The whole device list (GET /api/v1/device) kept as gzip pieces per range of sites (issue 46). At 100,000
 * devices a read of every row costs about 1.6 s of CPU (the portal decoding and encoding 117 MB of text, and
 * PostgreSQL reading it): inside the bench's REST round, with check-ins and other calls on the same two cores,
 * 4.7 s. Kept pieces make a read cost what changed since the last one.
 *
 * Each piece is the text of its devices' entries compressed on its own (gzip-pieces.ts), kept with the piece's
 * list version: the greatest of its sites' versions, which a trigger moves in the transaction of any change to
 * what their entries show, a device leaving the site, or a brand given to or taken from a client (migration
 * 0026, server/src/db/functions/site_list_version*.sql). A read reads the versions (one small query), reads and
 * compresses again the pieces whose version moved, and sends the kept ones as they are. The answer is current
 * as of the read, as a read of every row is: the 2 s cache in front of it (the service's) is what may be stale.
 *
 * Versions are read before rows: a change committed between the two can be in a piece kept with the older
 * version, which the next read then reads again; never the other way round. Two reads of one scope at once may
 * both read a piece; the one with the newer version is kept. Pieces are kept per scope (a client's pieces hold
 * its devices only) in this process; nothing is shared between processes, so no message is needed: each
 * process checks the versions in the database.
 */
export function keptLists(
  source: KeptListSource,
  opts: {
    pieceSites?: number;
    maxBytes?: number;
    /** Pieces a database read takes at most (READ_PIECES): more where entries are small (the pin feed's). */
    readPieces?: number;
    /** Between two entries: a comma for the list; ',\n' for the pin feed, read a line at a time (pinPieceRows). */
    separator?: string;
    /** Gzip's level for the pieces (gzip-pieces.ts LEVEL, 3, unless given). */
    level?: number;
  } = {},
): KeptLists {
  const pieceSites = opts.pieceSites ?? PIECE_SITES;
  const maxBytes = opts.maxBytes ?? MAX_BYTES;
  const separator = opts.separator ?? ',';
  const readPieces = opts.readPieces ?? READ_PIECES;
  const SEPARATOR = deflatePieceSync(Buffer.from(separator));
  const scopes = new Map<string, ScopePieces>();
  let clock = 0;
  let read = 0;

  const keep = (store: ScopePieces, index: number, kept: Kept) => {
    const before = store.pieces.get(index);
    if (before && before.version > kept.version) return;
    store.bytes += kept.piece.deflated.length - (before?.piece.deflated.length ?? 0);
    store.pieces.set(index, kept);
  };
  const evict = (current: string) => {
    let total = [...scopes.values()].reduce((sum, s) => sum + s.bytes, 0);
    for (const [key, store] of [...scopes].sort((a, b) => a[1].used - b[1].used)) {
      if (total <= maxBytes) break;
      if (key === current) continue;
      scopes.delete(key);
      total -= store.bytes;
    }
  };

  return {
    bytes: () => [...scopes.values()].reduce((sum, s) => sum + s.bytes, 0),
    piecesRead: () => read,
    read(key, scope) {
      return chunkedAnswer('gzip', async (out) => {
        let store = scopes.get(key);
        if (!store) scopes.set(key, (store = { pieces: new Map(), bytes: 0, used: 0 }));
        store.used = ++clock;
        // A narrower scope than the fleet's reads only the pieces holding its devices (asked each time: a device
        // given to a partner on another site adds a piece); the others would be read to find nothing.
        const [versions, held] = await Promise.all([
          source.listPieceVersions(pieceSites),
          scope ? source.listScopePieces(scope, pieceSites) : null,
        ]);
        if (held) for (const index of versions.keys()) if (!held.has(index)) versions.delete(index);
        const order = [...versions.keys()].sort((a, b) => a - b);
        for (const [index, gone] of store.pieces)
          if (!versions.has(index)) {
            store.pieces.delete(index);
            store.bytes -= gone.piece.deflated.length;
          }
        // The pieces still good, taken now: another read of the scope may replace or drop them meanwhile.
        const clean = new Map<number, DeflatedPiece>();
        for (const index of order) {
          const kept = store.pieces.get(index);
          if (kept && kept.version === versions.get(index)) clean.set(index, kept.piece);
        }
        const stale = order.filter((index) => !clean.has(index));

        // Runs of stale pieces next to each other, at most READ_PIECES a read.
        const runs: number[][] = [];
        for (const index of stale) {
          const run = runs.at(-1);
          if (run && run.at(-1) === index - 1 && run.length < readPieces) run.push(index);
          else runs.push([index]);
        }
        const fetched: Promise<Map<number, DeflatedPiece>>[] = [];
        const ask = (r: number) => {
          if (r >= runs.length) return;
          const run = runs[r]!;
          const p = source.listPieceRows(scope, run[0]!, run.at(-1)! + 1, pieceSites).then(async (rows) => {
            const made = await Promise.all(
              run.map((index) => deflatePiece(joinBytes(rows.get(index) ?? [], '', '', separator), opts.level)),
            );
            return new Map(run.map((index, i) => [index, made[i]!]));
          });
          // Awaited in its turn; a read that stops early must not leave it an unhandled rejection.
          p.catch(() => undefined);
          fetched[r] = p;
        };
        for (let r = 0; r < READS_AHEAD; r++) ask(r);

        const join = new GzipJoin();
        out.chunk(join.header);
        const send = (piece: DeflatedPiece) => {
          out.chunk(join.add(piece));
          out.plain(piece.length);
        };
        send(OPEN);
        let first = true;
        let r = 0;
        let fresh: Map<number, DeflatedPiece> | undefined;
        for (const index of order) {
          let piece: DeflatedPiece;
          if (runs[r]?.[0] === index) {
            fresh = await fetched[r]!;
            delete fetched[r];
            ask(r + READS_AHEAD);
            r++;
          }
          const made = clean.has(index) ? undefined : fresh?.get(index);
          if (made) {
            piece = made;
            keep(store, index, { version: versions.get(index)!, piece });
            read++;
          } else piece = clean.get(index)!;
          if (!piece.length) continue;
          if (!first) send(SEPARATOR);
          first = false;
          send(piece);
        }
        send(CLOSE);
        out.chunk(join.end());
        evict(key);
      });
    },
  };
}
