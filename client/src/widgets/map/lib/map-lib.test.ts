import { describe, expect, it } from 'vitest';
import { fakeDevice } from '../../../entities/device/lib/fake-device';
import { abbreviateCount, clusterCountFontPx, clusterDiameter } from './draw';
import { gridCluster, project } from './grid-cluster';
import {
  collectionOf,
  collectionOfBuild,
  countByStatus,
  countsOf,
  createPinsBuilder,
  packPostedPins,
  receivedColumns,
  transferablesOf,
  pinPositions,
  sitesDiff,
  siteCollectionOf,
  rowsOf,
  toPinCollection,
  unpackPins,
  type PinCollection,
  type PinsBuild,
  type SiteCollection,
  type ViewBox,
} from './pins';

describe('map pins', () => {
  it('turns devices into GeoJSON with one status property, which clusters count', () => {
    const pins = toPinCollection([fakeDevice('A1'), fakeDevice('B2', { is_pause: true }), fakeDevice('C3', { location: null })]);
    expect(pins.features).toHaveLength(2);
    expect(pins.features[1]!.properties).toEqual({
      serial: 'B2',
      label: expect.any(String),
      status: 'paused',
      g: expect.any(Number),
    });
    expect(countByStatus(pins)).toEqual({ normal: 1, registering: 0, offline: 0, warning: 0, paused: 1 });
    expect(countsOf({ n: 3, w: 1, o: '2' })).toEqual({ normal: 3, registering: 0, offline: 2, warning: 1, paused: 0 });
  });

  it('spreads the devices of one site around it and leaves single devices in place', () => {
    const site = [1, 2, 3].map((n) => fakeDevice(`S${n}`, { location_group: 7, number: n, location: { lat: 30, lng: -90 } }));
    const alone = fakeDevice('L1', { location_group: 8, location: { lat: 30.5, lng: -90.5 } });
    const positions = pinPositions([...site, alone]);
    expect(positions.get('L1')).toEqual([-90.5, 30.5]);
    const spread = site.map((d) => positions.get(d.serial)!);
    expect(new Set(spread.map((p) => p.join())).size).toBe(3);
    for (const [lng, lat] of spread) expect(Math.hypot(lng + 90, lat - 30)).toBeLessThan(0.002);
  });

  it("fans a site's devices by number, then by serial in code-unit order, the first at the top", () => {
    const at = { location_group: 9, number: null, location: { lat: 30, lng: -90 } };
    const positions = pinPositions(['b2', 'B1', 'a3'].map((serial) => fakeDevice(serial, at)));
    const top = [...positions].sort(([, p], [, q]) => q[1] - p[1])[0]!;
    expect(top[0]).toBe('B1');
    expect(top[1][0]).toBeCloseTo(-90, 9);
    const numbered = pinPositions([fakeDevice('Z9', { ...at, number: 1 }), fakeDevice('A1', { ...at, number: 2 })]);
    expect(numbered.get('Z9')![1]).toBeGreaterThan(numbered.get('A1')![1]);
  });

  it('clusters by screen cell with counts per status (Google provider)', () => {
    const z = 10;
    const near = (serial: string, status: 'normal' | 'offline', dx: number) => {
      const at = project(30, -90.26, z);
      return { x: at.x + dx, y: at.y, serial, status, label: serial };
    };
    const items = gridCluster([near('a', 'normal', 0), near('b', 'offline', 3), near('c', 'normal', 500)], 56);
    const cluster = items.find((item) => item.kind === 'cluster');
    expect(cluster && cluster.kind === 'cluster' ? cluster.counts.offline : 0).toBe(1);
    expect(items.filter((item) => item.kind === 'pin')).toHaveLength(1);
    expect(abbreviateCount(999)).toBe('999');
    expect(abbreviateCount(1250)).toBe('1.3k');
    expect(abbreviateCount(10_400)).toBe('10k');
  });

  it("sizes a cluster by its count, and its count's text to fit the bubble's disc", () => {
    expect([1, 9, 10, 99, 100, 999, 1000, 25_000].map(clusterDiameter)).toEqual([42, 42, 48, 48, 54, 54, 60, 60]);
    const sizes = (
      [
        ['7', 7],
        ['57', 57],
        ['999', 999],
        ['1.3k', 1250],
        ['10k', 10_400],
        ['100k', 100_000],
      ] as const
    ).map(([text, total]) => {
      const diameter = clusterDiameter(total);
      const px = clusterCountFontPx(text, diameter);
      // Readable, and inside the coloured disc (the ring is at least 4.5 px wide on each side): a bold
      // digit is about 0.6 em wide.
      expect(px).toBeGreaterThanOrEqual(12);
      expect(px * 0.6 * text.length).toBeLessThan(diameter - 2 * 4.5);
      return px;
    });
    // Bigger bubbles, bigger counts; four characters a little smaller than three in the same bubble.
    expect(sizes).toEqual([12, 14, 16, 16, 18, 16]);
  });
});

describe('sitesDiff', () => {
  const fleet = (
    changes: Record<string, Parameters<typeof fakeDevice>[1]> = {},
    serials = ['A1', 'B2', 'C3', 'D4', 'E5', 'F6'],
  ) =>
    // Each device on a site and place of its own (fakeDevice's site is the serial's number: B2 on site 2, key g2).
    siteCollectionOf(
      rowsOf(serials.map((serial, at) => fakeDevice(serial, { location: { lat: 30 + at / 100, lng: -90 }, ...changes[serial] }))),
    );

  it('sends only the sites that changed, by key: a new count, status, label or place is removed and added again', () => {
    const before = fleet();
    expect(sitesDiff(before, fleet())).toEqual({ remove: [], add: [] });
    const paused = fleet({ B2: { is_pause: true } });
    const diff = sitesDiff(before, paused)!;
    expect(diff.remove).toEqual(['g2']);
    expect(diff.add.map((f) => [f.properties.serial, f.properties.status])).toEqual([['B2', 'paused']]);
    const moved = fleet({ C3: { location: { lat: 29.5, lng: -90.5 } }, D4: { label: 'Pier 4' } });
    expect(sitesDiff(before, moved)).toEqual({
      remove: ['g3', 'g4'],
      add: moved.features.filter((f) => ['C3', 'D4'].includes(f.properties.serial!)),
    });
  });

  it('removes sites gone and adds sites new', () => {
    const before = fleet();
    const after = fleet({}, ['A1', 'B2', 'C3', 'D4', 'E5', 'G7']);
    const diff = sitesDiff(before, after)!;
    expect(diff.remove).toEqual(['g6']);
    expect(diff.add.map((f) => f.properties.serial)).toEqual(['G7']);
  });

  it('answers null when more than half of the sites changed (the whole data is then sent)', () => {
    const before = fleet();
    expect(
      sitesDiff(
        before,
        fleet({ A1: { is_pause: true }, B2: { is_pause: true }, C3: { is_pause: true }, D4: { is_pause: true } }),
      ),
    ).toBeNull();
    expect(sitesDiff(before, fleet({}, ['A1']))).toBeNull();
    expect(sitesDiff(fleet({}, []), fleet())).toBeNull();
  });
});

describe('pins packed for the worker and built as JSON bytes', () => {
  const fleet = [
    fakeDevice('A1', { location_group: 7, number: 2 }),
    { ...fakeDevice('A2', { location_group: 7, number: 1 }), label: null },
    { ...fakeDevice('B2', { is_pause: true }), location_group: null, number: null },
    fakeDevice('C3', { location: null }),
    fakeDevice('D4', { is_warning: true }),
  ];

  it('columns unpack to the same pins as the devices (statuses, sites, numbers, labels; no place, no pin)', async () => {
    const packed = async (devices: typeof fleet) => packPostedPins(devices, async () => undefined);
    const columns = receivedColumns(await packed(fleet));
    expect(columns.serials).toEqual(['A1', 'A2', 'B2', 'D4']);
    expect(collectionOf(unpackPins(columns))).toEqual(toPinCollection(fleet));
    // Only the devices given.
    expect(receivedColumns(await packed(fleet.filter((d) => !d.is_pause))).serials).toEqual(['A1', 'A2', 'D4']);
    // As posted to the worker (each string column one string) and received there: the same pins, labels
    // with commas, quotes and line breaks included; no pins, no rows.
    const odd = fleet.map((d, at) => (at === 0 ? { ...d, label: 'Pier 1, "north"\nside' } : d));
    const posted = await packed(odd);
    expect(unpackPins(receivedColumns(structuredClone(posted)))).toEqual(unpackPins(receivedColumns(posted)));
    expect(collectionOf(unpackPins(receivedColumns(structuredClone(posted))))).toEqual(toPinCollection(odd));
    // Posted with its transferables, every column is moved (none left on the page) and arrives whole.
    const moved = structuredClone(posted, { transfer: transferablesOf(posted) });
    expect(collectionOf(unpackPins(receivedColumns(moved)))).toEqual(toPinCollection(odd));
    const left = [posted.coords, posted.groups, posted.numbers, posted.statuses, ...posted.serials, ...posted.labels];
    expect(left.map((a) => a.byteLength)).toEqual(left.map(() => 0));
    expect(left).toHaveLength(6);
    expect(receivedColumns(await packed([]))).toMatchObject({ serials: [], labels: [] });
  });

  it('a build is the collection as UTF-8 JSON; the next one carries its diff from the build before', () => {
    const build = createPinsBuilder().build;
    const first = build(1, rowsOf(fleet));
    expect(collectionOfBuild(first)).toEqual(toPinCollection(fleet));
    expect(first.json).toBeInstanceOf(Uint8Array);
    // A label beyond ASCII comes back as it was (the bytes are UTF-8, decoded in MapLibre's worker).
    const named = createPinsBuilder().build(
      9,
      rowsOf(fleet.map((d) => (d.serial === 'A1' ? { ...d, label: 'Café – Praia ☀' } : d))),
    );
    expect(collectionOfBuild(named).features[0]!.properties.label).toBe('Café – Praia ☀');
    expect(first).toMatchObject({ base: null, sitesDiff: null, count: 4, counts: { normal: 2, paused: 1, warning: 1 } });
    const paused = fleet.map((d) => (d.serial === 'D4' ? { ...d, is_warning: false, is_pause: true } : d));
    const second = build(2, rowsOf(paused));
    expect(second.base).toBe(1);
    expect(second.counts).toMatchObject({ paused: 2, warning: 0 });
    // Most pins changed: the whole collection, no diff.
    const third = build(3, rowsOf(fleet.map((d) => ({ ...d, is_pause: false, is_warning: true }))));
    expect(third).toMatchObject({ base: null, sitesDiff: null });
  });

  it('a build carries the sites, a feature each with its devices counted by status, and their diff; view() answers the pins in a box', () => {
    const builder = createPinsBuilder();
    const first = builder.build(1, rowsOf(fleet));
    const sitesOf = (build: PinsBuild) =>
      (JSON.parse(new TextDecoder().decode(build.sites)) as SiteCollection).features.map((f) => f.properties);
    const none = { n: 0, r: 0, o: 0, w: 0, p: 0 };
    // A1 and A2 share site 7: one feature of two devices; B2 has no site (its place is its key); D4 is alone.
    expect(sitesOf(first)).toEqual([
      { k: 'g7', g: 7, c: 2, ...none, n: 2 },
      { k: '30.00000,-90.26000', g: -1, c: 1, ...none, p: 1, serial: 'B2', label: expect.any(String), status: 'paused' },
      { k: 'g4', g: 4, c: 1, ...none, w: 1, serial: 'D4', label: expect.any(String), status: 'warning' },
    ]);
    expect(first).toMatchObject({ siteCount: 3, sitesDiff: null });
    // D4 paused: its site's counts changed, nothing else.
    const second = builder.build(
      2,
      rowsOf(fleet.map((d) => (d.serial === 'D4' ? { ...d, is_warning: false, is_pause: true } : d))),
    );
    expect(second.sitesDiff?.remove).toEqual(['g4']);
    expect(second.sitesDiff?.add.map((f) => f.properties)).toEqual([
      { k: 'g4', g: 4, c: 1, ...none, p: 1, serial: 'D4', label: expect.any(String), status: 'paused' },
    ]);
    // The view's pins come from the latest build, fanned as the whole collection places them.
    const inBox = (box: ViewBox) =>
      (JSON.parse(new TextDecoder().decode(builder.view(box))) as PinCollection).features.map((f) => f.properties);
    expect(inBox([-91, 29, -89, 31]).map((p) => [p.serial, p.status])).toEqual([
      ['A1', 'normal'],
      ['A2', 'normal'],
      ['B2', 'paused'],
      ['D4', 'paused'],
    ]);
    expect(inBox([-80, 29, -79, 31])).toEqual([]);
  });
});

describe('pins packed a slice a task (packPostedPins)', () => {
  it('answers the columns one slice does, pausing between slices', async () => {
    const fleet = [
      fakeDevice('A1', { location_group: 7, number: 2 }),
      { ...fakeDevice('A2', { location_group: 7, number: 1 }), label: 'Pier 1, "north"' },
      fakeDevice('C3', { location: null }),
      fakeDevice('D4', { is_warning: true }),
      { ...fakeDevice('E5', { is_pause: true }), label: null },
    ];
    let pauses = 0;
    const posted = await packPostedPins(fleet, async () => void pauses++, 2);
    expect(receivedColumns(posted)).toEqual(receivedColumns(await packPostedPins(fleet, async () => undefined, 100)));
    // Each slice's strings are bytes of their own: two slices, two of each.
    expect([posted.serials.length, posted.labels.length]).toEqual([2, 2]);
    // Four located devices, two a slice: one pause between the two slices.
    expect(pauses).toBe(1);
    expect(unpackPins(receivedColumns(posted)).map((row) => row.serial)).toEqual(['A1', 'A2', 'D4', 'E5']);
    expect(receivedColumns(posted).labels).toEqual(['A1', 'Pier 1, "north"', 'D4', '']);
    expect(receivedColumns(await packPostedPins([], async () => void pauses++))).toMatchObject({ serials: [], labels: [] });
  });
});
