import { greatCircleMatrix, greatCircleSource, type LatLng, type TravelMatrix, type TravelTimeSource } from '@fleet/shared';

/**
 * Travel times from an OSRM-compatible routing service (ROUTING_URL), its Table API:
 * GET {ROUTING_URL}/table/v1/driving/{lng,lat;lng,lat;...}?annotations=duration,distance
 * answers { code: 'Ok', durations: [[s]], distances: [[m]] } (http://project-osrm.org/docs/v5.24.0/api/#table-service).
 *
 * OSRM refuses tables above its max-table-size (100 by default), so a larger matrix is asked in blocks
 * of BLOCK sources by BLOCK destinations (`sources=` and `destinations=` indices into the block's
 * coordinates). A pair the service cannot route (null) is unreachable: the solver then says the stop is
 * too far rather than guess.
 */
const BLOCK = 50;
const UNREACHABLE_SEC = 1e9;

export function osrmSource(
  baseUrl: string,
  opts: { fetch?: typeof fetch; profile?: string; timeoutMs?: number } = {},
): TravelTimeSource {
  const base = baseUrl.replace(/\/$/, '');
  const doFetch = opts.fetch ?? fetch;
  const profile = opts.profile ?? 'driving';
  return {
    name: 'osrm',
    async matrix(points: readonly LatLng[]): Promise<TravelMatrix> {
      const n = points.length;
      const seconds = points.map(() => new Array<number>(n).fill(0));
      const metres = points.map(() => new Array<number>(n).fill(0));
      for (let i0 = 0; i0 < n; i0 += BLOCK) {
        for (let j0 = 0; j0 < n; j0 += BLOCK) {
          const from = points.slice(i0, i0 + BLOCK);
          const to = points.slice(j0, j0 + BLOCK);
          const coords = [...from, ...to].map((p) => `${p.lng.toFixed(6)},${p.lat.toFixed(6)}`).join(';');
          const sources = from.map((_, k) => k).join(';');
          const destinations = to.map((_, k) => from.length + k).join(';');
          const url = `${base}/table/v1/${profile}/${coords}?sources=${sources}&destinations=${destinations}&annotations=duration,distance`;
          const res = await doFetch(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? 20_000) });
          const body = (await res.json().catch(() => null)) as {
            code?: string;
            message?: string;
            durations?: (number | null)[][];
            distances?: (number | null)[][];
          } | null;
          if (!res.ok || body?.code !== 'Ok' || !body.durations)
            throw new Error(`routing service: ${body?.code ?? res.status} ${body?.message ?? ''}`.trim());
          from.forEach((_, a) =>
            to.forEach((__, b) => {
              const s = body.durations![a]?.[b];
              const m = body.distances?.[a]?.[b];
              seconds[i0 + a]![j0 + b] = s == null ? UNREACHABLE_SEC : s;
              // Without distances (a service asked only for durations) the kilometres are the built-in estimate's.
              metres[i0 + a]![j0 + b] = m ?? (s == null ? UNREACHABLE_SEC : greatCircleMatrix([from[a]!, to[b]!]).metres[0]![1]!);
            }),
          );
        }
      }
      return { seconds, metres, source: 'osrm' };
    },
  };
}

/** ROUTING_URL set: the routing service; else the built-in great-circle estimate. */
export const travelSourceFor = (routingUrl: string | undefined): TravelTimeSource =>
  routingUrl ? osrmSource(routingUrl) : greatCircleSource();
