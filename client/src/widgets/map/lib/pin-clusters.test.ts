import { describe, expect, it } from 'vitest';
import { CLUSTER_OPTIONS, createPinClusters, type ViewFeature } from './pin-clusters';
import { collectionOf, type PinRow } from './pins';

const STATUSES = ['normal', 'registering', 'offline', 'warning', 'paused'] as const;
/** 40 sites of 5 devices around New Orleans, statuses in turn. */
const rows: PinRow[] = Array.from({ length: 200 }, (_, i) => ({
  serial: `SP${240000 + i}`,
  label: `Dispenser ${i}`,
  location: { lat: 29.9 + Math.floor(i / 5) * 0.01, lng: -90.1 + (Math.floor(i / 5) % 7) * 0.02 },
  location_group: Math.floor(i / 5) + 1,
  number: (i % 5) + 1,
  status: STATUSES[i % 5]!,
}));
const WORLD: [number, number, number, number] = [-180, -85, 180, 85];
const isCluster = (f: ViewFeature) => 'cluster' in f.properties;
const pointCount = (features: ViewFeature[]) =>
  features.reduce((sum, f) => sum + ('cluster' in f.properties ? f.properties.point_count : 1), 0);

describe('the pins clustered in the pins worker', () => {
  const clusters = createPinClusters(CLUSTER_OPTIONS);
  clusters.load(7, collectionOf(rows));

  it('holds every pin once at every zoom, clusters counting each status and their site range', () => {
    expect(clusters.build()).toBe(7);
    for (const zoom of [3, 6, 9, 11.6, 12, 13, 16]) {
      const { features } = clusters.view(WORLD, zoom);
      expect(pointCount(features)).toBe(rows.length);
      for (const f of features) {
        if (!('cluster' in f.properties)) continue;
        const p = f.properties;
        expect(p.n + p.r + p.o + p.w + p.p).toBe(p.point_count);
        expect(p.gmin).toBeLessThanOrEqual(p.gmax);
        expect(typeof p.cluster_id).toBe('number');
      }
    }
    // Zoomed out, the fleet is a few clusters; from MapLibre zoom 13 (the spec's 14) every pin is single.
    const far = clusters.view(WORLD, 3).features;
    expect(far.length).toBeLessThan(5);
    const all = far.find(isCluster)!.properties as { n: number; o: number; point_count: number; gmin: number; gmax: number };
    expect([all.n, all.o]).toEqual([40, 40]);
    expect(all.gmin).toBe(1);
    const near = clusters.view(WORLD, CLUSTER_OPTIONS.maxZoom + 1).features;
    expect(near.some(isCluster)).toBe(false);
    expect(near.map((f) => f.properties).find((p) => 'serial' in p && p.serial === 'SP240003')).toMatchObject({
      status: 'warning',
      g: 1,
    });
  });

  it('gives only the view’s features, and the zoom at which a cluster splits', () => {
    const west = clusters.view([-90.11, 29.8, -90.09, 30.5], 14).features;
    expect(west.length).toBeGreaterThan(0);
    for (const f of west) expect(f.geometry.coordinates[0]).toBeLessThan(-90.08);
    const cluster = clusters.view(WORLD, 6).features.find(isCluster)!;
    const id = (cluster.properties as { cluster_id: number }).cluster_id;
    const splits = clusters.expansionZoom(id)!;
    expect(splits).toBeGreaterThan(6);
    expect(clusters.expansionZoom(123456789)).toBeNull();
  });

  it('before any build, a view is empty', () => {
    expect(createPinClusters(CLUSTER_OPTIONS).view(WORLD, 5).features).toEqual([]);
  });
});
