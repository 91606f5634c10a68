import Supercluster, { type ClusterProperties as SuperclusterProperties } from 'supercluster';
import { STATUS_KEYS, type PinCollection, type PinProperties, type PinStatusKey } from './pins';

/**
 * The map's clusters, computed where the pins are built (the pins worker, pins.worker.ts) instead of in
 * MapLibre's worker (issue 46). With the whole fleet in a clustered MapLibre source, MapLibre's worker parsed
 * the 18 MB collection and clustered 100,000 points with the cluster properties as style expressions, about
 * 790 ms at 100,000 devices, beside the pins worker's own 430 ms, on a two-core host where the page's frames
 * wait on the GPU process for the CPU. Here the same library MapLibre uses (supercluster) indexes the pins
 * with plain functions for the properties, and the map's source is given only the clusters and pins of its
 * view (a few hundred features at any zoom).
 *
 * The options are MapLibre's for a clustered GeoJSON source with these settings: its tile extent (8192) and
 * the radius scaled from pixels of a 512 px tile, so the clusters are the ones MapLibre drew.
 */
const EXTENT = 8192;
const TILE_SIZE = 512;

/** Pins stop clustering from this spec zoom; a selected device (zoom 15) is always a single pin. */
export const CLUSTER_UNTIL_ZOOM = 14;
/**
 * Clusters gather pins within this many pixels, up to MapLibre zoom 12: the spec's zoom 14 is MapLibre's 13
 * (offline/map-context.ts toGlZoom: MapLibre's 512 px tiles), the last clustered level the one before.
 */
export const CLUSTER_OPTIONS = { radiusPx: 44, maxZoom: CLUSTER_UNTIL_ZOOM - 1 - 1 };

/** A cluster's properties besides supercluster's own: each status counted (STATUS_KEYS), and its site range. */
export type ClusterProperties = Record<PinStatusKey, number> & { gmin: number; gmax: number };
/** What a view holds: clusters (supercluster's properties and ClusterProperties) and single pins. */
export type ViewFeature = GeoJSON.Feature<GeoJSON.Point, PinProperties | (SuperclusterProperties & ClusterProperties)>;
export type PinView = { type: 'FeatureCollection'; features: ViewFeature[] };
/** West, south, east, north. */
export type Bounds = [number, number, number, number];

const NONE: ClusterProperties = { n: 0, r: 0, o: 0, w: 0, p: 0, gmin: Infinity, gmax: -Infinity };
const KEYS = Object.values(STATUS_KEYS);

export function createPinClusters(options: { radiusPx: number; maxZoom: number }) {
  let index: Supercluster<PinProperties, ClusterProperties> | null = null;
  let build = 0;
  return {
    /** Indexes the pins of build `id`: later views and expansions are of these. */
    load(id: number, collection: PinCollection) {
      index = new Supercluster<PinProperties, ClusterProperties>({
        radius: options.radiusPx * (EXTENT / TILE_SIZE),
        extent: EXTENT,
        maxZoom: options.maxZoom,
        map: (pin) => ({ ...NONE, [STATUS_KEYS[pin.status]]: 1, gmin: pin.g, gmax: pin.g }),
        reduce: (into, from) => {
          for (const key of KEYS) into[key] += from[key];
          into.gmin = Math.min(into.gmin, from.gmin);
          into.gmax = Math.max(into.gmax, from.gmax);
        },
      }).load(collection.features);
      build = id;
    },
    /** The build the views are of (0: none yet). */
    build: () => build,
    /** The clusters and pins within `bounds` at map zoom `zoom` (its whole zoom level, as MapLibre's tiles). */
    view(bounds: Bounds, zoom: number): PinView {
      return { type: 'FeatureCollection', features: index ? (index.getClusters(bounds, Math.floor(zoom)) as ViewFeature[]) : [] };
    },
    /** The zoom at which a cluster of the latest build splits; null for an id it does not have. */
    expansionZoom(clusterId: number): number | null {
      try {
        return index ? index.getClusterExpansionZoom(clusterId) : null;
      } catch {
        return null;
      }
    },
  };
}
