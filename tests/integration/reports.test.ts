import crypto from 'node:crypto';
import path from 'node:path';
import { eq, inArray, like } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_MESSAGES, type ReportAnswer } from '@fleet/shared';
import { bullmqQueue, inProcessQueue, jobs } from '@fleet/workers';
import { createApp } from '../../server/src/app.ts';
import { batteryReadings, deviceGroups, devices, jobRuns, pumpEvents } from '../../server/src/db/schema.ts';
import { createMailer, type Mailer } from '../../server/src/mail/mailer.ts';
import { dbJobLedger } from '../../server/src/jobs/job-ledger.ts';
import { reportFiles, reportRenderer } from '../../server/src/reports/report-mail.ts';
import { servicePlanRenderer } from '../../server/src/service-day/index.ts';
import { XLSX_HEADER_ROW } from '../../server/src/reports/report-files.ts';
import { backends } from '../helpers/backends.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';
import { pdfText, pdfTextChecks } from '../helpers/pdf-text.ts';
import { mailText, type ReceivedMail } from '../helpers/smtp.ts';
import { confirmRecipients } from '../helpers/report-recipients.ts';
import { redisAvailable, TEST_REDIS_URL } from '../helpers/redis.ts';

const BACKENDS = await backends();
const redisUp = await redisAvailable();
const drain = (app: unknown) => (app as { queue: { drain(): Promise<void> } }).queue.drain();
type Role = 'distributor' | 'client' | 'partner' | 'client2';

/** Reads a binary answer (xlsx, pdf) into a Buffer. */
const binary = (res: unknown, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  (res as NodeJS.ReadableStream).on('data', (c: Buffer) => chunks.push(c));
  (res as NodeJS.ReadableStream).on('end', () => cb(null, Buffer.concat(chunks)));
};

async function workbook(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  return wb;
}

/** Attachments of a received mail: file name, content type and decoded bytes. */
function attachments(mail: ReceivedMail): { filename: string; type: string; content: Buffer }[] {
  const out: { filename: string; type: string; content: Buffer }[] = [];
  const parts = mail.raw.split(/\r?\n--[^\r\n]+\r?\n/);
  for (const part of parts) {
    const [head, ...body] = part.split(/\r?\n\r?\n/);
    if (!head || !/Content-Disposition: attachment/i.test(head)) continue;
    const filename = /filename="?([^"\r\n;]+)"?/i.exec(head)?.[1] ?? '';
    const type = /Content-Type: ([^;\r\n]+)/i.exec(head)?.[1] ?? '';
    out.push({ filename, type, content: Buffer.from(body.join('\n').replace(/--[^\r\n]*--\s*$/, ''), 'base64') });
  }
  return out;
}

/**
 * The report calls of spec section 7 on hand-made history: pump events and battery readings are emptied,
 * then known rows are written around the range 2026-03-01..2026-03-08 in America/Chicago (the demo sites),
 * which crosses the spring-forward change, and the reports are compared with sums worked out by hand.
 *
 * Demo devices used: SP240001, SP240002 (Audubon Park, Orleans, SunStop: client, partner), SP240009 (Jazz &
 * Heritage Festival, Orleans, Gulf Shield: client, partner), SP240016 (City Park, SunStop: client, not the
 * partner), SP240029 (Lafitte Town Park, Bayou Clean: client2 only).
 */
describe.each(BACKENDS)('report calls on %s', (backend) => {
  let h: Harness;
  const key: Record<Role, string> = { distributor: '', client: '', partner: '', client2: '' };
  const ids = new Map<string, number>();
  const FL_OZ_ML = 29.5735;

  const as = (role: Role) => ({
    get: (p: string) => request(h.app).get(`/api/v1${p}`).set('Authorization', `Token ${key[role]}`),
    post: (p: string, body?: object) => request(h.app).post(`/api/v1${p}`).set('Authorization', `Token ${key[role]}`).send(body),
  });
  const dispense = (serial: string, pump: number, volumeMl: number, ...at: string[]) =>
    h.database.db
      .insert(pumpEvents)
      .values(at.map((t) => ({ deviceId: ids.get(serial)!, pumpNumber: pump, occurredAt: new Date(t), volumeMl })));

  const range = { startDate: '2026-03-01T00:00:00-06:00', endDate: '2026-03-08T23:59:59-05:00' };
  const serials = ['SP240001', 'SP240002', 'SP240009'];

  beforeAll(async () => {
    h = await startHarness(backend);
    for (const role of Object.keys(key) as Role[]) {
      key[role] = (
        await request(h.app)
          .post('/auth/token/login/')
          .send({ email: `${role}@demo.test`, password: 'Demo1234' })
      ).body.auth_token;
    }
    for (const d of await h.database.db.select({ id: devices.id, serial: devices.serial }).from(devices)) ids.set(d.serial, d.id);
    await h.database.exec('delete from pump_events; delete from battery_readings;');
    await h.database.db.update(deviceGroups).set({ timezoneId: 'America/Chicago' });
    await h.database.db
      .update(devices)
      .set({ leftPumpType: 'Sunscreen', rightPumpType: 'Sanitizer' })
      .where(eq(devices.serial, 'SP240001'));
    await h.database.db
      .update(devices)
      .set({ leftPumpType: 'Sunscreen', rightPumpType: 'Unspecified' })
      .where(eq(devices.serial, 'SP240002'));
    await h.database.db
      .update(devices)
      .set({ leftPumpType: 'Sanitizer', rightPumpType: 'Unspecified' })
      .where(eq(devices.serial, 'SP240009'));

    // SP240001 left (sunscreen): Chicago local times in the comments; the range is Mar 1 00:00 CST to Mar 9 00:00 CDT.
    await dispense('SP240001', 1, FL_OZ_ML, '2026-03-01T05:59:00Z'); // Feb 28 23:59 CST: before the range
    await dispense('SP240001', 1, FL_OZ_ML, '2026-03-01T06:00:00Z'); // Mar 1 00:00 CST: 1 fl.oz.
    await dispense('SP240001', 1, 2 * FL_OZ_ML, '2026-03-05T12:00:00Z'); // 2 fl.oz.
    await dispense('SP240001', 1, FL_OZ_ML / 2, '2026-03-09T04:59:00Z'); // Mar 8 23:59 CDT: 0.5 fl.oz., the last minute
    await dispense('SP240001', 1, FL_OZ_ML, '2026-03-09T05:00:00Z'); // Mar 9 00:00 CDT: after the range
    // SP240001 right (sanitizer): 2 x 10 ml = 0.676 fl.oz.
    await dispense('SP240001', 2, 10, '2026-03-02T12:00:00Z', '2026-03-03T12:00:00Z');
    // SP240002 left (sunscreen): 5 ml = 0.169 fl.oz.
    await dispense('SP240002', 1, 5, '2026-03-04T12:00:00Z');
    // SP240009 left (sanitizer): 2 fl.oz.
    await dispense('SP240009', 1, FL_OZ_ML, '2026-03-06T12:00:00Z', '2026-03-07T12:00:00Z');
    // Out of everyone's range or scope: SP240029 (client2 only).
    await dispense('SP240029', 1, 100, '2026-03-04T12:00:00Z');
    await h.database.db.insert(batteryReadings).values([
      { deviceId: ids.get('SP240001')!, recordedAt: new Date('2026-03-07T12:00:00Z'), batteryVolt: 3.9, batteryPercent: 80 },
      { deviceId: ids.get('SP240001')!, recordedAt: new Date('2026-03-09T06:00:00Z'), batteryVolt: 3.5, batteryPercent: 20 },
    ]);
  });
  afterAll(async () => {
    await h?.close();
  });

  describe('Email List for Report', () => {
    it("adds, lists, edits and deletes the caller's own addresses in the spec's shapes", async () => {
      // The demo seed gives the client one address already.
      const initial = (await as('client').get('/email')).body as { id: number }[];
      const added = await as('client').post('/addEmail', { email: ' Ops@Example.COM ', name: 'Ops' });
      expect(added.status, JSON.stringify(added.body)).toBe(201);
      // A new recipient has not confirmed yet (its confirmation mail: security-report-mails.test.ts).
      expect(added.body).toEqual({
        id: expect.any(Number),
        name: 'Ops',
        email: 'ops@example.com',
        is_enable: true,
        confirmed: false,
      });
      const id = added.body.id as number;

      expect((await as('client').post('/addEmail', { email: 'OPS@example.com', name: 'Again' })).body).toEqual({
        email: [REPORT_MESSAGES.duplicateEmail],
      });
      expect((await as('client').post('/addEmail', { email: 'x@example.com', name: '' })).body).toEqual({
        name: ['This field may not be blank.'],
      });
      expect((await as('client').post('/addEmail', { email: 'not-an-email', name: 'X' })).body).toEqual({
        email: ['Enter a valid email address.'],
      });
      expect((await as('client').post('/addEmail', { name: 'X' })).status).toBe(400);

      const edited = await as('client').post(`/email/${id}`, { email: 'ops@example.com', is_enable: false });
      expect(edited.status).toBe(200);
      expect(edited.body).toEqual({ id, name: 'Ops', email: 'ops@example.com', is_enable: false, confirmed: false });
      expect((await as('client').post(`/email/${id}`, {})).status).toBe(400);
      expect((await as('client').post(`/email/${id}`, { is_enable: 'yes' })).body).toEqual({
        is_enable: ['Must be true or false.'],
      });
      expect((await as('client').get('/email')).body).toEqual([...initial, edited.body]);

      // Another user neither sees nor touches it.
      expect((await as('partner').get('/email')).body.map((e: { id: number }) => e.id)).not.toContain(id);
      expect((await as('partner').post(`/email/${id}`, { is_enable: true })).status).toBe(404);
      expect((await as('partner').post(`/deleteEmail/${id}`, { isEnable: false })).status).toBe(404);
      expect((await as('client').post('/deleteEmail/abc', { isEnable: false })).status).toBe(400);

      expect((await as('client').post(`/deleteEmail/${id}`, { isEnable: true })).status).toBe(400);
      const deleted = await as('client').post(`/deleteEmail/${id}`, { isEnable: false });
      expect(deleted.status).toBe(200);
      expect(deleted.body).toEqual({ detail: REPORT_MESSAGES.emailDeleted });
      expect((await as('client').get('/email')).body).toEqual(initial);
      expect((await as('client').post(`/deleteEmail/${id}`, { isEnable: false })).status).toBe(404);
    });

    it('needs a token, and the read-only maintenance credential cannot write', async () => {
      expect((await request(h.app).get('/api/v1/email')).status).toBe(401);
      const res = await request(h.app)
        .post('/api/v1/addEmail')
        .set('Authorization', `Token ${h.config.maintenanceToken}`)
        .send({ email: 'a@b.test', name: 'A' });
      expect(res.status).toBe(403);
    });
  });

  describe('report tags', () => {
    it("saves {name, deviceSerials} and the spec's {name, tag}, lists, edits and removes them", async () => {
      const a = await as('client').post('/addReportTag', { name: 'Parks', deviceSerials: ['SP240001', 'SP240016', 'SP240001'] });
      expect(a.status, JSON.stringify(a.body)).toBe(201);
      expect(a.body).toMatchObject({ name: 'Parks', isSavedTag: true, deviceSerials: ['SP240001', 'SP240016'] });
      expect(a.body.devices.map((d: { serial: string }) => d.serial)).toEqual(['SP240001', 'SP240016']);

      const b = await as('client').post('/addReportTag', {
        name: 'Festival',
        tag: { name: 'Temporary Device List', deviceSerials: ['SP240009'] },
      });
      expect(b.status, JSON.stringify(b.body)).toBe(201);
      expect(b.body.deviceSerials).toEqual(['SP240009']);
      const c = await as('client').post('/addReportTag', { name: 'Listed', tag: [{ serial: 'SP240002' }] });
      expect(c.body.deviceSerials).toEqual(['SP240002']);

      expect((await as('client').post('/addReportTag', { name: ' parks ', deviceSerials: ['SP240002'] })).body).toEqual({
        name: [REPORT_MESSAGES.duplicateTagName],
      });
      expect(
        (await as('client').post('/addReportTag', { name: 'Both', deviceSerials: ['SP240002'], tag: ['SP240002'] })).status,
      ).toBe(400);
      expect((await as('client').post('/addReportTag', { name: 'Empty', deviceSerials: [] })).body).toEqual({
        deviceSerials: [REPORT_MESSAGES.noDevice],
      });
      // A device of another client's brand is refused like an unknown one, and nothing is saved.
      const foreign = await as('client').post('/addReportTag', {
        name: 'Foreign',
        deviceSerials: ['SP240001', 'SP240029', 'NOPE'],
      });
      expect(foreign.status).toBe(400);
      expect(foreign.body).toEqual({ deviceSerials: ['Unknown devices: SP240029, NOPE.'] });

      const list = await as('client').get('/reportTag');
      expect(list.body.map((t: { name: string }) => t.name)).toEqual(['Festival', 'Listed', 'Parks']);

      const edited = await as('client').post(`/editReportTag/${a.body.id}`, { name: 'Big parks', deviceSerials: ['SP240016'] });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      expect(edited.body).toMatchObject({ id: a.body.id, name: 'Big parks', deviceSerials: ['SP240016'] });
      expect((await as('client').post(`/editReportTag/${a.body.id}`, { name: 'festival' })).body).toEqual({
        name: [REPORT_MESSAGES.duplicateTagName],
      });
      expect((await as('client').post(`/editReportTag/${a.body.id}`, {})).status).toBe(400);

      // Tags are per user: the partner sees none of them and cannot change them.
      expect((await as('partner').get('/reportTag')).body).toEqual([]);
      expect((await as('partner').post(`/editReportTag/${a.body.id}`, { name: 'Mine' })).status).toBe(404);
      expect((await as('partner').post(`/removeReportTag/${a.body.id}`)).status).toBe(404);
      // The partner's own tag may hold only its devices (SP240016 is not one of them).
      expect((await as('partner').post('/addReportTag', { name: 'Parks', deviceSerials: ['SP240016'] })).body).toEqual({
        deviceSerials: ['Unknown device: SP240016.'],
      });
      expect((await as('partner').post('/addReportTag', { name: 'Parks', deviceSerials: ['SP240001'] })).status).toBe(201);

      const removed = await as('client').post(`/removeReportTag/${a.body.id}`);
      expect(removed.status).toBe(200);
      expect((await as('client').post(`/removeReportTag/${a.body.id}`)).status).toBe(404);
      expect((await as('client').get('/reportTag')).body.map((t: { name: string }) => t.name)).toEqual(['Festival', 'Listed']);
    });
  });

  describe('reports', () => {
    it('POST /report: per device and total dispenses and fl.oz. over the site-local days, battery, counts', async () => {
      const res = await as('distributor').post('/report', { deviceSerials: serials, ...range });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const r = res.body as ReportAnswer;
      expect(r).toMatchObject({
        start_date: '2026-03-01',
        end_date: '2026-03-08',
        days: 8,
        range_label: '2026/Mar/01 - 2026/Mar/08',
        counts: { devices: 3, brands: 2, counties: 1 },
      });
      const by = Object.fromEntries(r.devices.map((d) => [d.serial, d]));
      expect(by.SP240001).toMatchObject({
        left_pump_type: 'Sunscreen',
        right_pump_type: 'Sanitizer',
        left_dispensed: 3,
        right_dispensed: 2,
        sunscreen_dispensed: 3,
        sanitizer_dispensed: 2,
        sunscreen_fl_oz: 3.5,
        sanitizer_fl_oz: 0.68,
        battery_percent: 80,
        county: 'Orleans Parish',
        brand: 'SunStop',
        time_zone: 'America/Chicago',
      });
      expect(by.SP240002).toMatchObject({
        left_dispensed: 1,
        right_dispensed: 0,
        sunscreen_dispensed: 1,
        sunscreen_fl_oz: 0.17,
        sanitizer_fl_oz: 0,
        battery_percent: null,
      });
      expect(by.SP240009).toMatchObject({
        left_dispensed: 2,
        sunscreen_dispensed: 0,
        sanitizer_dispensed: 2,
        sanitizer_fl_oz: 2,
      });
      expect(r.totals).toEqual({
        left_dispensed: 6,
        right_dispensed: 2,
        sunscreen_dispensed: 4,
        sanitizer_dispensed: 4,
        sunscreen_fl_oz: 3.67,
        sanitizer_fl_oz: 2.68,
      });
      // Plain dates mean the same days.
      const plain = await as('distributor').post('/report', {
        deviceSerials: serials,
        startDate: '2026-03-01',
        endDate: '2026-03-08',
      });
      expect(plain.body.totals).toEqual(r.totals);
    });

    it('POST /downloadReport: a real xlsx whose cells hold the same numbers, named <start>-<end>.xlsx', async () => {
      const res = await as('distributor')
        .post('/downloadReport', { deviceSerials: serials, ...range })
        .buffer(true)
        .parse(binary);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toContain('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="2026_Mar_01-2026_Mar_08.xlsx"; filename*=UTF-8''2026%2FMar%2F01-2026%2FMar%2F08.xlsx`,
      );
      const wb = await workbook(res.body as Buffer);
      const ws = wb.getWorksheet('Report')!;
      expect(ws.getCell('A1').value).toBe('Dispensing Report');
      expect(String(ws.getCell('A2').value)).toContain('2026/Mar/01 - 2026/Mar/08 (8 days');
      expect(ws.getCell('A3').value).toBe('Devices: 3    Brands: 2    Counties: 1');
      const header = (ws.getRow(XLSX_HEADER_ROW).values as unknown[]).slice(1) as string[];
      const col = (name: string) => header.indexOf(name) + 1;
      const rows = new Map<string, ExcelJS.Row>();
      let totals: ExcelJS.Row | undefined;
      ws.eachRow((row, n) => {
        if (n <= XLSX_HEADER_ROW) return;
        if (row.getCell(1).value === 'Total') totals = row;
        else rows.set(String(row.getCell(col('Serial')).value), row);
      });
      expect([...rows.keys()].sort()).toEqual(serials);
      const num = (row: ExcelJS.Row | undefined, name: string) => row!.getCell(col(name)).value;
      expect(num(rows.get('SP240001'), 'Left Pump Dispenses')).toBe(3);
      expect(num(rows.get('SP240001'), 'Right Pump Dispenses')).toBe(2);
      expect(num(rows.get('SP240001'), 'Sunscreen Used (fl.oz.)')).toBe(3.5);
      expect(num(rows.get('SP240001'), 'Sanitizer Used (fl.oz.)')).toBe(0.68);
      expect(num(rows.get('SP240001'), 'Battery %')).toBe(80);
      expect(num(rows.get('SP240002'), 'Sunscreen Used (fl.oz.)')).toBe(0.17);
      expect(num(rows.get('SP240009'), 'Sanitizer Dispensed')).toBe(2);
      expect(num(totals, 'Sunscreen Dispensed')).toBe(4);
      expect(num(totals, 'Sanitizer Dispensed')).toBe(4);
      expect(num(totals, 'Left Pump Dispenses')).toBe(6);
      expect(num(totals, 'Sunscreen Used (fl.oz.)')).toBe(3.67);
      expect(num(totals, 'Sanitizer Used (fl.oz.)')).toBe(2.68);
    });

    it('POST /api/pdf renders the report data as a PDF named <start>-<end>.pdf', async () => {
      const data = (await as('client').post('/report', { deviceSerials: serials, ...range })).body as ReportAnswer;
      const res = await request(h.app)
        .post('/api/pdf')
        .set('Authorization', `Token ${key.client}`)
        .send(data)
        .buffer(true)
        .parse(binary);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      expect(res.headers['content-disposition']).toContain("filename*=UTF-8''2026%2FMar%2F01-2026%2FMar%2F08.pdf");
      const pdf = res.body as Buffer;
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      // pdftotext (a reader's extraction) gives runs of spaces as one.
      if (pdfTextChecks) {
        const text = pdfText(pdf);
        for (const s of [
          'Dispensing Report',
          'SP240001',
          'SP240009',
          'Total',
          '3.67',
          '2.68',
          'Devices: 3 Brands: 2 Counties: 1',
          'Page 1 of 1',
        ])
          expect(text).toContain(s);
      }

      // A long report breaks into pages, each numbered.
      const long = {
        ...data,
        devices: Array.from({ length: 120 }, (_, i) => ({ ...data.devices[0]!, serial: `SP9${String(i).padStart(5, '0')}` })),
      };
      const big = await request(h.app)
        .post('/api/pdf')
        .set('Authorization', `Token ${key.client}`)
        .send(long)
        .buffer(true)
        .parse(binary);
      expect(big.status).toBe(200);
      if (pdfTextChecks) {
        // Rows wrap to their tallest cell, so the page count follows the content: every row is there, every page numbered.
        const text = pdfText(big.body as Buffer);
        const pages = Number(/Page 1 of (\d+)/.exec(text)?.[1]);
        expect(pages).toBeGreaterThanOrEqual(3);
        expect(text).toContain(`Page ${pages} of ${pages}`);
        for (const d of long.devices) expect(text).toContain(d.serial);
      }

      expect((await request(h.app).post('/api/pdf').send(data)).status).toBe(401);
      const bad = await request(h.app)
        .post('/api/pdf')
        .set('Authorization', `Token ${key.client}`)
        .send({ ...data, days: 'many' });
      expect(bad.status).toBe(400);
      expect(bad.body).toHaveProperty('days');
    });

    it.skipIf(!pdfTextChecks)('keeps labels outside Latin-1 (Greek, Vietnamese) in the PDF text', async () => {
      const labels: Record<string, string> = { SP240002: 'Bãi biển Mỹ Khê', SP240009: 'Παραλία Βόρεια' };
      const saved = await h.database.db
        .select({ serial: devices.serial, label: devices.label })
        .from(devices)
        .where(inArray(devices.serial, Object.keys(labels)));
      try {
        for (const [serial, label] of Object.entries(labels))
          await h.database.db.update(devices).set({ label }).where(eq(devices.serial, serial));
        const data = (await as('client').post('/report', { deviceSerials: serials, ...range })).body as ReportAnswer;
        expect(data.devices.map((d) => d.name)).toEqual(expect.arrayContaining(Object.values(labels)));
        const res = await request(h.app)
          .post('/api/pdf')
          .set('Authorization', `Token ${key.client}`)
          .send(data)
          .buffer(true)
          .parse(binary);
        expect(res.status).toBe(200);
        const text = pdfText(res.body as Buffer);
        for (const label of Object.values(labels)) expect(text).toContain(label);
      } finally {
        for (const d of saved) await h.database.db.update(devices).set({ label: d.label }).where(eq(devices.serial, d.serial));
      }
    });

    it('refuses devices outside the caller scope like unknown ones, never a 500', async () => {
      const client = await as('client').post('/report', { deviceSerials: ['SP240001', 'SP240029'], ...range });
      expect(client.status).toBe(400);
      expect(client.body).toEqual({ deviceSerials: ['Unknown device: SP240029.'] });
      expect((await as('partner').post('/downloadReport', { deviceSerials: ['SP240016'], ...range })).body).toEqual({
        deviceSerials: ['Unknown device: SP240016.'],
      });
      expect((await as('client2').post('/report', { deviceSerials: ['SP240029'], ...range })).status).toBe(200);
      expect((await as('client').post('/report', { deviceSerials: [], ...range })).body).toEqual({
        deviceSerials: [REPORT_MESSAGES.noDevice],
      });
    });

    it('bad dates answer 400 with the field', async () => {
      const post = (body: object) => as('distributor').post('/report', { deviceSerials: serials, ...range, ...body });
      expect((await post({ startDate: 'yesterday' })).body).toHaveProperty('startDate');
      expect((await post({ endDate: '2026-02-30' })).body).toHaveProperty('endDate');
      expect((await post({ startDate: undefined })).body).toEqual({ startDate: ['This field is required.'] });
      const reversed = await post({ startDate: '2026-03-09', endDate: '2026-03-08' });
      expect(reversed.status).toBe(400);
      expect(reversed.body).toEqual({ startDate: [REPORT_MESSAGES.startAfterEnd] });
      expect((await post({ startDate: '2010-01-01' })).status).toBe(400);
      const malformed = await request(h.app)
        .post('/api/v1/downloadReport')
        .set('Authorization', `Token ${key.distributor}`)
        .set('Content-Type', 'application/json')
        .send('{"deviceSerials": [');
      expect(malformed.status).toBe(400);
    });
  });

  describe('POST /emailReport', () => {
    const mailsTo = (email: string, since: number) => h.smtp.received.slice(since).filter((m) => m.to.includes(email));

    beforeAll(async () => {
      for (const [email, name] of [
        ['ops@report.test', 'Ops'],
        ['boss@report.test', 'Boss'],
        ['off@report.test', 'Off'],
      ]) {
        const res = await as('distributor').post('/addEmail', { email, name });
        expect(res.status).toBe(201);
        if (email === 'off@report.test') await as('distributor').post(`/email/${res.body.id}`, { is_enable: false });
      }
      // Each opens its confirmation link, as a recipient must before any report reaches it.
      await confirmRecipients(h.app, h.smtp.received, ['ops@report.test', 'boss@report.test', 'off@report.test']);
    });

    it("answers 400 for an empty list, and for addresses not enabled in the caller's list", async () => {
      const empty = await as('distributor').post('/emailReport', { deviceSerials: serials, ...range, emails: [] });
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({ emails: [REPORT_MESSAGES.emailListEmpty] });
      const stranger = await as('distributor').post('/emailReport', {
        deviceSerials: serials,
        ...range,
        emails: ['ops@report.test', 'spam@else.test', 'off@report.test'],
      });
      expect(stranger.status).toBe(400);
      expect(stranger.body.emails[0]).toContain('spam@else.test, off@report.test');
      // Another user's list does not count.
      expect(
        (await as('client').post('/emailReport', { deviceSerials: ['SP240001'], ...range, emails: ['ops@report.test'] })).status,
      ).toBe(400);
      expect(
        (await as('distributor').post('/emailReport', { deviceSerials: ['NOPE'], ...range, emails: ['ops@report.test'] })).status,
      ).toBe(400);
    });

    it('mails each address once with the xlsx and the pdf; the same request again mails nobody', async () => {
      const before = h.smtp.received.length;
      const body = { deviceSerials: serials, ...range, emails: ['ops@report.test', 'Boss@report.test'], requestId: 'req-1' };
      const res = await as('distributor').post('/emailReport', body);
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      expect(res.body).toMatchObject({ detail: 'queued', requestId: 'req-1', jobId: expect.stringMatching(/^[0-9a-f]{32}$/) });
      expect(res.body.jobs.map((j: { email: string }) => j.email)).toEqual(['ops@report.test', 'boss@report.test']);
      await drain(h.app);

      for (const to of ['ops@report.test', 'boss@report.test']) {
        const mails = mailsTo(to, before);
        expect(mails).toHaveLength(1);
        const files = attachments(mails[0]!);
        expect(files.map((f) => f.filename).sort()).toEqual(['2026_Mar_01-2026_Mar_08.pdf', '2026_Mar_01-2026_Mar_08.xlsx']);
        expect(
          files
            .find((f) => f.filename.endsWith('.pdf'))!
            .content.subarray(0, 5)
            .toString('latin1'),
        ).toBe('%PDF-');
        const wb = await workbook(files.find((f) => f.filename.endsWith('.xlsx'))!.content);
        expect(wb.getWorksheet('Report')!.getCell('A3').value).toBe('Devices: 3    Brands: 2    Counties: 1');
        expect(mailText(mails[0]!.raw)).toContain('Sunscreen: 4 dispenses, 3.67 fl.oz.');
      }
      expect(h.smtp.received.length - before).toBe(2);

      // The same request again (a client retry), also keyed by the Idempotency-Key header: nothing more.
      const again = await as('distributor').post('/emailReport', body);
      expect(again.body.jobs).toEqual(res.body.jobs);
      const { requestId: _omit, ...withoutId } = body;
      await request(h.app)
        .post('/api/v1/emailReport')
        .set('Authorization', `Token ${key.distributor}`)
        .set('Idempotency-Key', 'req-1')
        .send(withoutId)
        .expect(202);
      await drain(h.app);
      expect(h.smtp.received.length - before).toBe(2);

      // Without a request id every call is a new send.
      const fresh = await as('distributor').post('/emailReport', { ...withoutId, emails: ['ops@report.test'] });
      expect(fresh.body.requestId).not.toBe('req-1');
      await drain(h.app);
      expect(mailsTo('ops@report.test', before)).toHaveLength(2);
    });

    it('builds a report for three addresses once; after a mail that failed every attempt, the request again sends only it', async () => {
      await as('distributor').post('/addEmail', { email: 'third@report.test', name: 'Third' }).expect(201);
      await confirmRecipients(h.app, h.smtp.received, ['third@report.test']);
      // The harness's own app is another process on this database: its outbox relay (every 2 s) could take the
      // rows this test's app records and run them with its own renderer and mailer (a clean-clone CI run saw no
      // build here: the harness had relayed them). Its queue is closed from here on; the tests after this one
      // make their own apps.
      await (h.app as unknown as { queue: { close(): Promise<void> } }).queue.close();
      let builds = 0;
      const counted: typeof reportFiles = (report) => {
        builds += 1;
        return reportFiles(report);
      };
      let bossFailures = 5; // every attempt of the first run
      const smtp = createMailer({ smtpUrl: h.smtp.url, from: 'Portal <p@x.test>', outboxDir: path.join(h.dataDir, 'out') });
      const mailer: Mailer = {
        async send(m) {
          if (m.to === 'boss@report.test' && bossFailures-- > 0) throw new Error('SMTP hiccup');
          await smtp.send(m);
        },
      };
      // The real report-email job, with a short backoff so its five attempts fit in the test.
      const fast = { ...jobs, 'report-email': { ...jobs['report-email'], backoffMs: 5 } };
      const queue = inProcessQueue(
        fast,
        { mailer, reports: reportRenderer(h.database.db, { files: counted }), servicePlans: servicePlanRenderer(h.database.db) },
        dbJobLedger(h.database.db),
      );
      const app = createApp({ config: h.config, database: h.database, mailer, queue, log: () => undefined });
      try {
        const before = h.smtp.received.length;
        const emails = ['ops@report.test', 'boss@report.test', 'third@report.test'];
        const body = { deviceSerials: serials, ...range, emails, requestId: `once-${crypto.randomUUID()}` };
        const res = await request(app)
          .post('/api/v1/emailReport')
          .set('Authorization', `Token ${key.distributor}`)
          .send(body)
          .expect(202);
        expect(res.body.jobs).toHaveLength(3);
        await drain(app); // the outbox's drain: the relay hands the rows to the queue, then the queue runs them
        expect(builds).toBe(1);
        expect(mailsTo('ops@report.test', before)).toHaveLength(1);
        expect(mailsTo('third@report.test', before)).toHaveLength(1);
        expect(mailsTo('boss@report.test', before)).toHaveLength(0);
        const runs = await h.database.db
          .select()
          .from(jobRuns)
          .where(like(jobRuns.idempotencyKey, `report-email:${res.body.jobId}:%`));
        expect(Object.fromEntries(runs.map((r) => [r.idempotencyKey.split(':').at(-1), r.status]))).toEqual({
          'ops@report.test': 'done',
          'boss@report.test': 'failed',
          'third@report.test': 'done',
        });

        // The client sends the request again: only the mail that did not go is sent, with the stored files.
        await request(app).post('/api/v1/emailReport').set('Authorization', `Token ${key.distributor}`).send(body).expect(202);
        await drain(app); // the outbox's drain: the relay hands the rows to the queue, then the queue runs them
        expect(builds).toBe(1);
        for (const to of emails) expect(mailsTo(to, before)).toHaveLength(1);
        expect(h.smtp.received.length - before).toBe(3);
        // Every address got the same files: the one build.
        const pdfs = emails.map((to) => attachments(mailsTo(to, before)[0]!).find((f) => f.filename.endsWith('.pdf'))!.content);
        expect(pdfs[1]!.equals(pdfs[0]!) && pdfs[2]!.equals(pdfs[0]!)).toBe(true);
      } finally {
        await app.queue.close();
      }
    });

    it('retries a failed send, and a retry after success sends nothing twice', async () => {
      let failures = 1;
      const smtp = createMailer({ smtpUrl: h.smtp.url, from: 'Portal <p@x.test>', outboxDir: path.join(h.dataDir, 'out') });
      const flaky: Mailer = {
        async send(m) {
          if (failures-- > 0) throw new Error('SMTP hiccup');
          await smtp.send(m);
        },
      };
      // The harness's own app is another process on this database: its outbox relay (every 2 s) could take this
      // test's row and send it with its own mailer, so the flaky one would never be tried, and this app's drain
      // would return before that send (a clean-clone CI run saw no mail here). Its queue is closed from here on;
      // the second worker below is an app of this test's own, made once the first send is done (its relay could
      // otherwise take the row first too). The test before closed it too (again here when this one runs alone).
      await (h.app as unknown as { queue: { close(): Promise<void> } }).queue.close();
      const app = createApp({ config: h.config, database: h.database, mailer: flaky, log: () => undefined });
      let other: ReturnType<typeof createApp> | undefined;
      try {
        const before = h.smtp.received.length;
        const body = { deviceSerials: ['SP240001'], ...range, emails: ['ops@report.test'], requestId: 'req-flaky' };
        const res = await request(app).post('/api/v1/emailReport').set('Authorization', `Token ${key.distributor}`).send(body);
        expect(res.status).toBe(202);
        await drain(app);
        expect(failures).toBe(-1); // the flaky mailer failed once, and the retry sent it
        expect(mailsTo('ops@report.test', before)).toHaveLength(1);
        const [run] = await h.database.db
          .select()
          .from(jobRuns)
          .where(like(jobRuns.idempotencyKey, `report-email:${res.body.jobId}:%`));
        expect(run).toMatchObject({ name: 'report-email', status: 'done' });

        // Queued again on the other app (a second worker) and on this one: nothing more.
        other = createApp({ config: h.config, database: h.database, mailer: smtp, log: () => undefined });
        await request(other).post('/api/v1/emailReport').set('Authorization', `Token ${key.distributor}`).send(body).expect(202);
        await request(app).post('/api/v1/emailReport').set('Authorization', `Token ${key.distributor}`).send(body).expect(202);
        await Promise.all([drain(other), drain(app)]);
        expect(mailsTo('ops@report.test', before)).toHaveLength(1);
      } finally {
        await Promise.all([app.queue.close(), other?.queue.close()]);
      }
    });

    it.skipIf(!redisUp)('on BullMQ, two workers given the same request mail each address once', async () => {
      const prefix = `test-${crypto.randomBytes(4).toString('hex')}`;
      const mailer = createMailer({ smtpUrl: h.smtp.url, from: 'Portal <p@x.test>', outboxDir: path.join(h.dataDir, 'out') });
      let builds = 0;
      const counted: typeof reportFiles = (report) => {
        builds += 1;
        return reportFiles(report);
      };
      // Each worker has its own renderer and store, as two processes would: the stored claim decides who builds.
      const worker = () => {
        const queue = bullmqQueue(
          jobs,
          {
            mailer,
            reports: reportRenderer(h.database.db, { files: counted }),
            servicePlans: servicePlanRenderer(h.database.db),
          },
          dbJobLedger(h.database.db),
          { redisUrl: TEST_REDIS_URL, prefix },
        );
        return { queue, app: createApp({ config: h.config, database: h.database, mailer, queue, log: () => undefined }) };
      };
      // The harness's own app is a third process on this database: its outbox relay (every 2 s) would take rows
      // these two workers are given and send them with a renderer of its own (closed by the test before too;
      // again here when this one runs alone).
      await (h.app as unknown as { queue: { close(): Promise<void> } }).queue.close();
      const a = worker();
      const b = worker();
      try {
        const before = h.smtp.received.length;
        const body = {
          deviceSerials: serials,
          ...range,
          emails: ['ops@report.test', 'boss@report.test'],
          requestId: `bull-${prefix}`,
        };
        for (const w of [a, b, a])
          await request(w.app)
            .post('/api/v1/emailReport')
            .set('Authorization', `Token ${key.distributor}`)
            .send(body)
            .expect(202);
        // Each app's outbox drain: its relay hands the recorded rows over, then its worker runs them.
        await Promise.all([drain(a.app), drain(b.app)]);
        await Promise.all([drain(a.app), drain(b.app)]);
        expect(mailsTo('ops@report.test', before)).toHaveLength(1);
        expect(mailsTo('boss@report.test', before)).toHaveLength(1);
        expect(attachments(mailsTo('boss@report.test', before)[0]!)).toHaveLength(2);
        expect(builds).toBe(1);
      } finally {
        await a.app.queue.close();
        await b.app.queue.close();
      }
    });
  });
});
