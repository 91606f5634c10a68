import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeDevicePin, devicePinsSchema, PIN_BITS, pinBits, type DeviceListItemShape } from '@fleet/shared';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

const BACKENDS = await backends();
type Role = 'distributor' | 'client' | 'partner';

/** GET /api/v1/devicePins: the compact map feed says the same as the device list, in the same scope. */
describe.each(BACKENDS)('device pin feed on %s', (backend) => {
  let h: Harness;
  const key: Record<Role, string> = { distributor: '', client: '', partner: '' };
  beforeAll(async () => {
    h = await startHarness(backend);
    for (const role of Object.keys(key) as Role[]) {
      key[role] = (
        await request(h.app)
          .post('/auth/token/login/')
          .send({ email: `${role}@demo.test`, password: 'Demo1234' })
      ).body.auth_token;
    }
  });
  afterAll(async () => {
    await h?.close();
  });
  const get = (role: Role, path: string) => request(h.app).get(`/api/v1${path}`).set('Authorization', `Token ${key[role]}`);

  /** What the pin feed must say about a device, read from its full list answer. */
  const expectedPin = (d: DeviceListItemShape & { location: { lat: number; lng: number } | null }) => ({
    serial: d.serial,
    location: d.location,
    label: d.label,
    number: d.number,
    location_group: d.location_group,
    brand: d.brand,
    ...Object.fromEntries(Object.keys(PIN_BITS).map((flag) => [flag, d[flag as keyof typeof PIN_BITS]])),
  });

  it.each(['distributor', 'client', 'partner'] as Role[])(
    'for a %s: one pin per listed device, each field as the list says',
    async (role) => {
      const [pins, list] = await Promise.all([get(role, '/devicePins'), get(role, '/device')]);
      expect(pins.status).toBe(200);
      expect(pins.type).toBe('application/json');
      const tuples = devicePinsSchema.parse(pins.body);
      expect(tuples.length).toBe(list.body.length);
      expect(tuples.length).toBeGreaterThan(0);
      const bySerial = new Map(list.body.map((d: DeviceListItemShape) => [d.serial, d]));
      for (const tuple of tuples) {
        const device = bySerial.get(tuple[0]) as Parameters<typeof expectedPin>[0];
        expect(device, tuple[0]).toBeDefined();
        expect(decodeDevicePin(tuple)).toEqual(expectedPin(device));
        expect(tuple[3]).toBe(pinBits(device));
      }
      // Ordered by device id: the same order on every call.
      expect(tuples.map((t) => (bySerial.get(t[0]) as { id: number }).id)).toEqual(
        [...list.body.map((d: { id: number }) => d.id)].sort((a, b) => a - b),
      );
    },
  );

  it('is a fraction of the list answer and shrinks further with gzip', async () => {
    const pins = await get('distributor', '/devicePins').set('Accept-Encoding', 'identity');
    const list = await get('distributor', '/device').set('Accept-Encoding', 'identity');
    expect(pins.text.length * 8).toBeLessThan(list.text.length);
    // One tuple a line, so the map can parse the feed a slice at a time (client shared/lib/json-lines.ts).
    const lines = pins.text.split('\n');
    expect(lines).toHaveLength((pins.body as unknown[]).length);
    expect(lines.map((line) => JSON.parse(line.replace(/^\[(?=\[)/, '').replace(/,$|\]$/, '')))).toEqual(pins.body);
    const zipped = await get('distributor', '/devicePins').set('Accept-Encoding', 'gzip');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.body).toEqual(pins.body);
  });

  it('shows a pause made through REST at once', async () => {
    const [serial] = (await get('distributor', '/devicePins')).body[0] as [string];
    const flag = async () =>
      decodeDevicePin((await get('distributor', '/devicePins')).body.find((t: [string]) => t[0] === serial)).is_pause;
    const before = await flag();
    const res = await request(h.app)
      .post(`/api/v1/setPauseDevice/${serial}`)
      .set('Authorization', `Token ${key.distributor}`)
      .send({ isPause: !before });
    expect(res.status).toBe(200);
    expect(await flag()).toBe(!before);
    await request(h.app)
      .post(`/api/v1/setPauseDevice/${serial}`)
      .set('Authorization', `Token ${key.distributor}`)
      .send({ isPause: before });
  });

  it('refuses a caller without a token and is in the OpenAPI document', async () => {
    expect((await request(h.app).get('/api/v1/devicePins')).status).toBe(401);
    const doc = (await request(h.app).get('/api/openapi.json')).body;
    expect(doc.paths['/api/v1/devicePins'].get.responses['200'].content['application/json'].schema.type).toBe('array');
  });
});
