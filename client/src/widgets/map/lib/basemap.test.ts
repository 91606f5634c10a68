import { createRequire } from 'node:module';
import fs from 'node:fs';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $placeNames, fetchPlaceNamesFx, placeViewSettled } from '../model';
import { usBorders, waterOf } from './basemap';
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
      handlers: [[fetchPlaceNamesFx, async (q: { west: number; minPopulation: number }) => (asked.push(`${q.west}|${q.minPopulation}`), { places: [{ name: 'Metairie', state: 'LA', population: 143_000, lat: 29.98, lng: -90.15 }] })]],
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
