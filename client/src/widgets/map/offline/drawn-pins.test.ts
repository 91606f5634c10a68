import type { Map as MaplibreMap } from 'maplibre-gl';
import { describe, expect, it } from 'vitest';
import { byLabelPriority, drawnPins, PINS_SOURCE, VIEW_PINS_SOURCE, type DrawnPin } from './drawn-pins';

type Feature = { geometry: { type: string; coordinates: [number, number] }; properties: Record<string, unknown> };

/** A 400x300 canvas where a place's pixel is its coordinates (x = lng, y = lat), with the source's tile features. */
function mapWith(features: Feature[], viewFeatures: Feature[] = []) {
  const asked: string[] = [];
  const map = {
    getCanvas: () => ({ clientWidth: 400, clientHeight: 300 }),
    querySourceFeatures: (source: string) => (asked.push(source), source === VIEW_PINS_SOURCE ? viewFeatures : features),
    project: ([x, y]: [number, number]) => ({ x, y }),
  };
  return { map: map as unknown as MaplibreMap, asked };
}
const pin = (serial: string, x: number, y: number, status = 'normal'): Feature => ({
  geometry: { type: 'Point', coordinates: [x, y] },
  properties: { serial, status },
});
const cluster = (id: number, x: number, y: number): Feature => ({
  geometry: { type: 'Point', coordinates: [x, y] },
  properties: { cluster: true, cluster_id: id, point_count: 12, gmin: 3, gmax: 3 },
});

describe('drawnPins', () => {
  it('reads the pins source once, keeps each pin and cluster once though tiles repeat them, and drops what lies beyond the margin', () => {
    const { map, asked } = mapWith([
      pin('A', 10, 10),
      pin('A', 10, 10),
      cluster(7, 200, 150),
      cluster(7, 200, 150),
      pin('B', 420, 10),
      pin('C', -30, 100),
      pin('D', 100, 330),
    ]);
    const strict = drawnPins(map);
    expect(asked).toEqual([PINS_SOURCE, VIEW_PINS_SOURCE]);
    expect(
      strict.map((d) => [d.cluster ? `cluster ${String(d.properties.cluster_id)}` : String(d.properties.serial), d.x, d.y]),
    ).toEqual([
      ['A', 10, 10],
      ['cluster 7', 200, 150],
    ]);
    expect(strict[1]).toMatchObject({ cluster: true, at: [200, 150] });
    // Within 40 px of the canvas: B (20 px right of it), C (30 px left) and D (30 px below) too.
    expect(drawnPins(map, 40).map((d) => String(d.properties.serial ?? d.properties.cluster_id))).toEqual([
      'A',
      '7',
      'B',
      'C',
      'D',
    ]);
  });

  it("reads the view's devices too, and counts a site of several devices as a bubble named by its site", () => {
    const site: Feature = {
      geometry: { type: 'Point', coordinates: [50, 50] },
      properties: { k: 'g4', g: 4, c: 3, n: 3, r: 0, o: 0, w: 0, p: 0 },
    };
    const lone: Feature = {
      geometry: { type: 'Point', coordinates: [60, 60] },
      properties: { k: 'g5', g: 5, c: 1, n: 1, r: 0, o: 0, w: 0, p: 0, serial: 'L1', status: 'normal' },
    };
    const { map } = mapWith([site, site, lone], [pin('V1', 70, 70)]);
    const drawn = drawnPins(map);
    expect(drawn.map((d) => [d.cluster, d.properties.serial ?? d.properties.k])).toEqual([
      [true, 'g4'],
      [false, 'L1'],
      [false, 'V1'],
    ]);
    expect(drawn[0]!.properties).toMatchObject({ gmin: 4, gmax: 4 });
  });

  it('leaves out what is not a point', () => {
    const { map } = mapWith([
      { geometry: { type: 'LineString', coordinates: [0, 0] }, properties: { serial: 'L' } },
      pin('P', 5, 5),
    ]);
    expect(drawnPins(map).map((d) => d.properties.serial)).toEqual(['P']);
  });
});

describe('byLabelPriority', () => {
  const drawn = (serial: string, status: string): DrawnPin => ({
    at: [0, 0],
    x: 0,
    y: 0,
    cluster: false,
    properties: { serial, status },
  });
  it('puts the selected pin first, then the worst statuses, then serials in order', () => {
    const pins = [
      drawn('N2', 'normal'),
      drawn('W1', 'warning'),
      drawn('N1', 'normal'),
      drawn('O1', 'offline'),
      drawn('P1', 'paused'),
      drawn('R1', 'registering'),
      drawn('S', 'normal'),
    ];
    expect([...pins].sort(byLabelPriority('S')).map((p) => p.properties.serial)).toEqual([
      'S',
      'O1',
      'W1',
      'R1',
      'P1',
      'N1',
      'N2',
    ]);
    expect([...pins].sort(byLabelPriority(null)).map((p) => p.properties.serial)).toEqual([
      'O1',
      'W1',
      'R1',
      'P1',
      'N1',
      'N2',
      'S',
    ]);
  });
});
