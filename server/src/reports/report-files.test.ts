import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { ReportAnswer, ReportDevice } from '@fleet/shared';
import { pdfText, pdfTextChecks } from '../../../tests/helpers/pdf-text.ts';
import { formatNumber, REPORT_COLUMNS, reportPdf, reportXlsx, XLSX_HEADER_ROW } from './report-files.ts';

describe('PDF numbers read like the spreadsheet', () => {
  it('keeps the format of each column', () => {
    expect(formatNumber(6.5, '#,##0.00')).toBe('6.50');
    expect(formatNumber(1234.567, '#,##0.00')).toBe('1,234.57');
    expect(formatNumber(12345, '#,##0')).toBe('12,345');
    expect(formatNumber(48, '0.0')).toBe('48.0');
    expect(formatNumber('Total', '#,##0')).toBe('Total');
    expect(formatNumber(null, '#,##0')).toBeNull();
    expect(formatNumber(7, undefined)).toBe(7);
  });
});

const device = (over: Partial<ReportDevice>): ReportDevice => ({
  serial: 'SP240001',
  name: 'Audubon Park Main Entrance Playground North',
  brand: 'SunStop Sunscreen Company',
  county: 'Orleans Parish',
  address: '6500 Magazine St, New Orleans, LA 70118, United States',
  time_zone: 'America/Chicago',
  left_pump_type: 'Sunscreen',
  right_pump_type: 'Sanitizer',
  left_dispensed: 204536,
  right_dispensed: 1234,
  sunscreen_dispensed: 204536,
  sanitizer_dispensed: 1234,
  sunscreen_fl_oz: 12345.67,
  sanitizer_fl_oz: 89.5,
  battery_percent: 48,
  warnings: ['BATCH_EXPIRED', 'LEFT_SANITIZER_PUMP', 'BATTERY'],
  ...over,
});
const REPORT: ReportAnswer = {
  title: 'Dispensing Report',
  start_date: '2026-03-01',
  end_date: '2026-03-08',
  days: 8,
  range_label: '2026/Mar/01 - 2026/Mar/08',
  generated_at: '2026-03-09T10:00:00Z',
  counts: { devices: 2, brands: 1, counties: 1 },
  devices: [device({}), device({ serial: 'SP240002', name: 'Short', warnings: [] })],
  totals: {
    left_dispensed: 409072,
    right_dispensed: 2468,
    sunscreen_dispensed: 409072,
    sanitizer_dispensed: 2468,
    sunscreen_fl_oz: 24691.34,
    sanitizer_fl_oz: 179,
  },
};
/** The words of a text, for checks that do not care where a wrapped cell breaks its lines. */
const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe('report files read well', () => {
  it.skipIf(!pdfTextChecks)(
    'PDF: every header and value whole (wrapped, never cut), warnings in words; pages render',
    async () => {
      const pdf = await reportPdf(REPORT, { compress: false });
      const text = pdfText(pdf);
      const found = new Set(words(text));
      expect(text).not.toMatch(/\.\.\.|…/);
      for (const c of REPORT_COLUMNS)
        for (const w of words(c.header)) expect(found, `header word '${w}' of '${c.header}'`).toContain(w);
      for (const w of words(`${REPORT.devices[0]!.name} ${REPORT.devices[0]!.address} ${REPORT.devices[0]!.brand}`))
        expect(found, w).toContain(w);
      for (const n of ['204,536', '12,345.67', '409,072', '24,691.34', '48.0']) expect(found).toContain(n);
      expect(text).toMatch(/Batch\s+expired/);
      expect(text).toMatch(/Left\s+sanitizer\s+pump\s+empty/);
      expect(text).not.toMatch(/BATCH_|_PUMP|BATTERY/);
      // Rendered to PNG (what a reader sees): tests/.artifacts/report-pdf-1.png, looked at by hand.
      const out = path.join(process.cwd(), 'tests', '.artifacts');
      fs.mkdirSync(out, { recursive: true });
      const file = path.join(os.tmpdir(), `report-${process.pid}.pdf`);
      fs.writeFileSync(file, pdf);
      const png = spawnSync('pdftoppm', ['-png', '-r', '110', '-f', '1', '-l', '1', file, path.join(out, 'report-pdf')]);
      fs.rmSync(file, { force: true });
      expect(png.status).toBe(0);
    },
  );

  it('PDF: a table longer than a page repeats its header and keeps every row whole', async () => {
    const many = {
      ...REPORT,
      devices: Array.from({ length: 60 }, (_, i) => device({ serial: `SP24${String(i).padStart(4, '0')}` })),
    };
    const pdf = await reportPdf(many, { compress: false });
    if (!pdfTextChecks) return;
    const text = pdfText(pdf);
    for (let i = 0; i < 60; i++) expect(text).toContain(`SP24${String(i).padStart(4, '0')}`);
    const pages = Number(/Page 1 of (\d+)/.exec(text)?.[1]);
    expect(pages).toBeGreaterThan(1);
    expect(text.split('Site/Event Name').length - 1).toBe(pages);
  });

  it('XLSX: warnings in words, the headers whole', async () => {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await reportXlsx(REPORT)) as unknown as ExcelJS.Buffer);
    const ws = wb.getWorksheet('Report')!;
    const header = (ws.getRow(XLSX_HEADER_ROW).values as unknown[]).slice(1);
    expect(header).toEqual(REPORT_COLUMNS.map((c) => c.header));
    const warnings = ws.getRow(XLSX_HEADER_ROW + 1).getCell(header.indexOf('Warnings') + 1).value;
    expect(warnings).toBe('Batch expired, Left sanitizer pump empty, Low battery');
  });
});
