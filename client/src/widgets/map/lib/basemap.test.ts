import { createRequire } from 'node:module';
import fs from 'node:fs';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $placeNames, fetchPlaceNamesFx, placeViewSettled } from '../model';
import { splitAtAntimeridian, usBorders, waterOf } from './basemap';
import { minPopulationAt } from './place-names';

const require = createRequire(import.meta.url);
const json = (id: string) => JSON.parse(fs.readFileSync(require.resolve(id), 'utf8'));

describe('offline basemap', () => {
  it('draws water as the world with the land cut out', () => {
    const water = waterOf(json('world-atlas/land-50m.json'));
    const [world, ...holes] = water.geometry.coordinates;
    expect(world).toHaveLength(5);
    expect(holes.length).toBeGreaterThan(100);
    // Every hole stays inside the outer ring, so the polygon triangulates.
    expect(holes.every((ring) => ring.every(([, lat]) => Math.abs(lat!) < 89))).toBe(true);
    // No land outline wraps round the world flat (world-atlas stitches Russia and Fiji across the
    // antimeridian): only Antarctica, round the pole, spans it, and no ring jumps from one side to the other
    // and back. Such a band overlapped Alaska, Canada and Greenland and filled their tiles with water.
    const span = (ring: number[][]) => Math.max(...ring.map(([lng]) => lng!)) - Math.min(...ring.map(([lng]) => lng!));
    const wide = holes.filter((ring) => span(ring) > 300);
    expect(wide).toHaveLength(1);
    expect(Math.max(...wide[0]!.map(([, lat]) => lat!))).toBeLessThan(-60);
    const jumps = (ring: number[][]) => ring.slice(1).filter(([lng], i) => Math.abs(lng! - ring[i]![0]!) > 180).length;
    expect(holes.filter((ring) => jumps(ring) > 1)).toEqual([]);
  });

  it('cuts a land outline that crosses the antimeridian into one ring on each side', () => {
    // 170°E to 170°W and back, between 60° and 70°N, as world-atlas writes it (jumping from 180 to -180).
    const ring: [number, number][] = [
      [170, 60],
      [-170, 60],
      [-170, 70],
      [170, 70],
      [170, 60],
    ];
    const [west, east] = splitAtAntimeridian(ring);
    expect(west!.every(([lng]) => lng >= 170 && lng <= 180)).toBe(true);
    expect(east!.every(([lng]) => lng >= -180 && lng <= -170)).toBe(true);
    expect(west!.some(([lng]) => lng === 180) && east!.some(([lng]) => lng === -180)).toBe(true);
    // Closed rings.
    for (const r of [west!, east!]) expect(r[0]).toEqual(r[r.length - 1]);
    // A ring that does not cross, or one round a pole (a single jump), is kept as it is.
    const plain: [number, number][] = [
      [-91, 29],
      [-89, 29],
      [-89, 31],
      [-91, 29],
    ];
    expect(splitAtAntimeridian(plain)).toEqual([plain]);
    const polar: [number, number][] = [
      [-180, -70],
      [0, -75],
      [180, -70],
      [-180, -70],
    ];
    expect(splitAtAntimeridian(polar)).toEqual([polar]);
  });

  it('draws US state borders and county (parish) borders inside a state', () => {
    const borders = usBorders(json('us-atlas/counties-10m.json'));
    expect(borders.features.map((f) => f.properties?.kind)).toEqual(['state', 'county']);
    expect(borders.features[0]!.geometry.coordinates.length).toBeGreaterThan(50);
    expect(borders.features[1]!.geometry.coordinates.length).toBeGreaterThan(1000);
  });

  it('names only big cities zoomed out and every town from zoom 12', () => {
    expect(minPopulationAt(4)).toBe(500_000);
    expect(minPopulationAt(10)).toBe(4_000);
    expect(minPopulationAt(12)).toBe(0);
    expect(minPopulationAt(15)).toBe(0);
  });

  it('asks for the towns of a view once, with a margin, and again only when leaving it or zooming', async () => {
    const asked: string[] = [];
    const scope = fork({
      handlers: [
        [
          fetchPlaceNamesFx,
          async (q: { west: number; minPopulation: number }) => (
            asked.push(`${q.west}|${q.minPopulation}`),
            { places: [{ name: 'Metairie', state: 'LA', population: 143_000, lat: 29.98, lng: -90.15 }] }
          ),
        ],
      ],
    });
    const view = { west: -90.5, south: 29.8, east: -90.0, north: 30.1, zoom: 10 };
    await allSettled(placeViewSettled, { scope, params: view });
    expect(asked).toEqual(['-90.75|4000']);
    expect(scope.getState($placeNames).map((p) => p.name)).toEqual(['Metairie']);
    await allSettled(placeViewSettled, { scope, params: { ...view, west: -90.45, east: -89.95 } });
    expect(asked).toHaveLength(1);
    await allSettled(placeViewSettled, { scope, params: { ...view, zoom: 12 } });
    expect(asked).toHaveLength(2);
  });
});
