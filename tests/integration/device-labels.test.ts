import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labelCell } from '../../server/src/labels/index.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { pdfText, pdfTextChecks } from '../helpers/pdf-text.ts';
import { decodeRegion, renderPdf } from '../helpers/qr-decode.ts';

// One backend is enough: the call is one query and a render.
const [BACKEND] = await backends();

/** GET /api/v1/deviceLabels: the PDF's text has the serials, and its codes read back to the field app's URL of each. */
describe('device labels', () => {
  let h: Harness;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    h = await startHarness(BACKEND!);
    for (const who of ['distributor', 'client', 'partner']) {
      keys[who] = (
        await request(h.app)
          .post('/auth/token/login/')
          .send({ email: `${who}@demo.test`, password: 'Demo1234' })
      ).body.auth_token;
    }
    keys.maintenance = h.config.maintenanceToken;
  });
  afterAll(async () => {
    await h?.close();
  });
  const get = (who: string, path: string) =>
    request(h.app)
      .get(path)
      .set('Authorization', `Token ${keys[who]}`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });
  const serialsOf = async (who: string) =>
    (JSON.parse((await get(who, '/api/v1/device')).body.toString()) as { serial: string; location_group?: unknown }[]).map(
      (d) => d.serial,
    );

  /** Every label's code, decoded from the rendered pages in label order. */
  const decodeAll = (pdf: Buffer, count: number) => {
    const pages = renderPdf(pdf);
    return Array.from({ length: count }, (_, i) => {
      const cell = labelCell(i);
      return decodeRegion(pages[cell.page]!, cell);
    });
  };

  it('prints the named devices: each code holds <PUBLIC_URL>/maintenance?device=<serial>, the serial printed under it', async () => {
    const serials = (await serialsOf('distributor')).slice(0, 14);
    const res = await get('distributor', `/api/v1/deviceLabels?serials=${serials.join(',')}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const pdf = res.body as Buffer;
    if (pdfTextChecks) {
      const text = pdfText(pdf);
      for (const s of serials) expect(text).toContain(s);
    }
    // 14 labels: two pages, read back in the order printed (site, then number).
    const decoded = decodeAll(pdf, serials.length);
    expect(decoded.every((d) => d !== null)).toBe(true);
    expect(new Set(decoded)).toEqual(new Set(serials.map((s) => `${h.config.publicUrl}/maintenance?device=${s}`)));
  });

  it('prints a site and a brand; scoped by role; a serial outside the scope is named', async () => {
    const device = JSON.parse((await get('distributor', '/api/v1/device')).body.toString())[0] as {
      serial: string;
      location_group: number | { id: number };
      brand: number | null;
    };
    const all = JSON.parse((await get('distributor', '/api/v1/device')).body.toString()) as {
      serial: string;
      location_group: number | { id: number };
      brand: number | null;
    }[];
    const siteId = typeof device.location_group === 'object' ? device.location_group.id : device.location_group;
    const atSite = all
      .filter((d) => (typeof d.location_group === 'object' ? d.location_group.id : d.location_group) === siteId)
      .map((d) => d.serial);
    const site = await get('maintenance', `/api/v1/deviceLabels?site=${siteId}`);
    expect(site.status).toBe(200);
    expect(decodeAll(site.body, atSite.length).map((u) => u?.split('device=')[1])).toEqual(expect.arrayContaining(atSite));
    const brandId = all.find((d) => d.brand)!.brand!;
    const ofBrand = all.filter((d) => d.brand === brandId).map((d) => d.serial);
    const brand = await get('distributor', `/api/v1/deviceLabels?brand=${brandId}`);
    expect(brand.status).toBe(200);
    if (pdfTextChecks) for (const s of ofBrand) expect(pdfText(brand.body)).toContain(s);

    const partner = new Set(await serialsOf('partner'));
    const outside = all.map((d) => d.serial).find((s) => !partner.has(s))!;
    const refused = await get('partner', `/api/v1/deviceLabels?serials=${[...partner][0]},${outside}`);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body.toString())).toEqual({ serials: [`No device with serial ${outside}.`] });
    expect((await get('partner', `/api/v1/deviceLabels?serials=${[...partner][0]}`)).status).toBe(200);
    const client = new Set(await serialsOf('client'));
    const notClients = all.map((d) => d.serial).find((s) => !client.has(s))!;
    expect((await get('client', `/api/v1/deviceLabels?serials=${notClients}`)).status).toBe(400);
    expect(JSON.parse((await get('distributor', '/api/v1/deviceLabels')).body.toString())).toEqual({
      serials: ['Give one of serials, site or brand.'],
    });
    expect((await get('distributor', '/api/v1/deviceLabels?site=abc')).status).toBe(400);
    expect((await request(h.app).get('/api/v1/deviceLabels?site=1')).status).toBe(401);
  });
});
