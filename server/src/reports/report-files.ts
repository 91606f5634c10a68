import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { pdfWithFonts } from '../lib/pdf.ts';
import type { ReportAnswer, ReportDevice } from '@fleet/shared';

type Totals = ReportAnswer['totals'];

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** One column of the report table, the same in the spreadsheet and the PDF. */
type Column = {
  header: string;
  /** Shorter header for the PDF's narrow columns. */
  short?: string;
  value: (r: ReportDevice) => string | number | null;
  total?: (t: Totals) => string | number;
  numFmt?: string;
  xlsxWidth: number;
  pdfWidth: number;
};

const INT = '#,##0';
const FL_OZ = '#,##0.00';

/** A number as the spreadsheet's format shows it, so the PDF reads like the .xlsx (6.50, not 6.5; 1,234). */
export function formatNumber(value: string | number | null, numFmt: string | undefined): string | number | null {
  if (typeof value !== 'number' || !numFmt) return value;
  const decimals = numFmt.includes('.') ? numFmt.split('.')[1]!.length : 0;
  return value.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals, useGrouping: numFmt.includes(',') });
}

export const REPORT_COLUMNS: Column[] = [
  { header: 'Site/Event Name', value: (r) => r.name, total: () => 'Total', xlsxWidth: 30, pdfWidth: 95 },
  { header: 'Serial', value: (r) => r.serial, xlsxWidth: 12, pdfWidth: 50 },
  { header: 'Brand', value: (r) => r.brand ?? 'None', xlsxWidth: 16, pdfWidth: 55 },
  { header: 'County', value: (r) => r.county ?? '', xlsxWidth: 22, pdfWidth: 65 },
  { header: 'Address', value: (r) => r.address, xlsxWidth: 40, pdfWidth: 115 },
  { header: 'Left Pump', value: (r) => r.left_pump_type, xlsxWidth: 12, pdfWidth: 45 },
  { header: 'Left Pump Dispenses', short: 'Left #', value: (r) => r.left_dispensed, total: (t) => t.left_dispensed, numFmt: INT, xlsxWidth: 12, pdfWidth: 35 },
  { header: 'Right Pump', value: (r) => r.right_pump_type, xlsxWidth: 12, pdfWidth: 45 },
  { header: 'Right Pump Dispenses', short: 'Right #', value: (r) => r.right_dispensed, total: (t) => t.right_dispensed, numFmt: INT, xlsxWidth: 12, pdfWidth: 35 },
  { header: 'Sunscreen Dispensed', short: 'Sunscreen #', value: (r) => r.sunscreen_dispensed, total: (t) => t.sunscreen_dispensed, numFmt: INT, xlsxWidth: 12, pdfWidth: 40 },
  { header: 'Sanitizer Dispensed', short: 'Sanitizer #', value: (r) => r.sanitizer_dispensed, total: (t) => t.sanitizer_dispensed, numFmt: INT, xlsxWidth: 12, pdfWidth: 40 },
  { header: 'Sunscreen Used (fl.oz.)', short: 'Sunscreen fl.oz.', value: (r) => r.sunscreen_fl_oz, total: (t) => t.sunscreen_fl_oz, numFmt: FL_OZ, xlsxWidth: 14, pdfWidth: 45 },
  { header: 'Sanitizer Used (fl.oz.)', short: 'Sanitizer fl.oz.', value: (r) => r.sanitizer_fl_oz, total: (t) => t.sanitizer_fl_oz, numFmt: FL_OZ, xlsxWidth: 14, pdfWidth: 45 },
  { header: 'Battery %', value: (r) => r.battery_percent, numFmt: '0.0', xlsxWidth: 10, pdfWidth: 32 },
  { header: 'Warnings', value: (r) => r.warnings.join(', '), xlsxWidth: 30, pdfWidth: 40 },
];

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const headerLines = (r: ReportAnswer) => [
  `Range: ${r.range_label} (${plural(r.days, 'day', 'days')}; each site in its own time zone)`,
  `Devices: ${r.counts.devices}    Brands: ${r.counts.brands}    Counties: ${r.counts.counties}`,
  `Generated: ${r.generated_at}`,
];

/** The row of the column headers in the sheet (after the title and the three header lines and a blank row). */
export const XLSX_HEADER_ROW = 6;

/** The report as an .xlsx workbook: one sheet, numbers stored as numbers, a totals row. */
export async function reportXlsx(report: ReportAnswer): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Fleet Portal';
  wb.created = new Date(report.generated_at);
  const ws = wb.addWorksheet('Report', { views: [{ state: 'frozen', ySplit: XLSX_HEADER_ROW }] });
  ws.columns = REPORT_COLUMNS.map((c) => ({ width: c.xlsxWidth }));
  ws.addRow([report.title]).font = { bold: true, size: 14 };
  for (const line of headerLines(report)) ws.addRow([line]);
  ws.addRow([]);
  const header = ws.addRow(REPORT_COLUMNS.map((c) => c.header));
  header.font = { bold: true };
  header.alignment = { wrapText: true, vertical: 'middle' };
  header.eachCell((cell) => {
    cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFDCE6F0' } };
  });
  for (const r of report.devices) ws.addRow(REPORT_COLUMNS.map((c) => c.value(r)));
  const totals = ws.addRow(REPORT_COLUMNS.map((c) => c.total?.(report.totals) ?? null));
  totals.font = { bold: true };
  REPORT_COLUMNS.forEach((c, i) => {
    if (c.numFmt) ws.getColumn(i + 1).numFmt = c.numFmt;
  });
  ws.autoFilter = { from: { row: XLSX_HEADER_ROW, column: 1 }, to: { row: XLSX_HEADER_ROW, column: REPORT_COLUMNS.length } };
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const MARGIN = 30;
const ROW_HEIGHT = 12;
const FONT_SIZE = 7;

/** The report as a PDF: A4 landscape, the header, then the table (its header repeated on every page), page numbers. */
export function reportPdf(report: ReportAnswer, opts: { compress?: boolean } = {}): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: MARGIN,
    compress: opts.compress ?? true,
    bufferPages: true,
    info: { Title: `${report.title} ${report.range_label}`, Creator: 'Fleet Portal' },
  });
  // DejaVu as 'Body' and 'Body-Bold': text beyond Latin-1 prints as written (lib/pdf.ts).
  const done = pdfWithFonts(doc);

  /** Shortens a cell to its column, with '...' when cut (never wraps: one row is one line). */
  const fit = (text: string, width: number) => {
    const room = width - 4;
    if (doc.widthOfString(text) <= room) return text;
    let s = text;
    while (s.length && doc.widthOfString(`${s}...`) > room) s = s.slice(0, -1);
    return `${s}...`;
  };
  const cell = (value: string | number | null, x: number, y: number, width: number, numeric: boolean) =>
    doc.text(fit(value == null ? '' : String(value), width), x + 2, y + 2, { width: width - 4, lineBreak: false, align: numeric ? 'right' : 'left' });
  const row = (values: (string | number | null)[], y: number, opts: { bold?: boolean; fill?: string } = {}) => {
    if (opts.fill) doc.rect(MARGIN, y, doc.page.width - 2 * MARGIN, ROW_HEIGHT).fill(opts.fill).fillColor('black');
    doc.font(opts.bold ? 'Body-Bold' : 'Body').fontSize(FONT_SIZE);
    let x = MARGIN;
    REPORT_COLUMNS.forEach((c, i) => {
      cell(values[i] ?? null, x, y, c.pdfWidth, typeof values[i] === 'number');
      x += c.pdfWidth;
    });
  };
  const tableHeader = (y: number) => {
    row(REPORT_COLUMNS.map((c) => c.short ?? c.header), y, { bold: true, fill: '#dce6f0' });
    return y + ROW_HEIGHT;
  };

  doc.font('Body-Bold').fontSize(16).text(report.title, MARGIN, MARGIN);
  doc.font('Body').fontSize(10);
  for (const line of headerLines(report)) doc.text(line);
  let y = tableHeader(doc.y + 8);
  const bottom = () => doc.page.height - MARGIN - ROW_HEIGHT - 10;
  report.devices.forEach((r, i) => {
    if (y > bottom()) {
      doc.addPage();
      y = tableHeader(MARGIN);
    }
    row(REPORT_COLUMNS.map((c) => formatNumber(c.value(r), c.numFmt)), y, i % 2 ? { fill: '#f5f7fa' } : {});
    y += ROW_HEIGHT;
  });
  if (y > bottom()) {
    doc.addPage();
    y = tableHeader(MARGIN);
  }
  row(REPORT_COLUMNS.map((c) => formatNumber(c.total?.(report.totals) ?? null, c.numFmt)), y, { bold: true, fill: '#e8edf3' });

  const pages = doc.bufferedPageRange();
  for (let i = pages.start; i < pages.start + pages.count; i++) {
    doc.switchToPage(i);
    // Writing inside the bottom margin would start a new page: lift the margin for the footer.
    const marginBottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font('Body').fontSize(8).text(`${report.range_label}    Page ${i + 1} of ${pages.count}`, MARGIN, doc.page.height - MARGIN + 8, {
      width: doc.page.width - 2 * MARGIN,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.bottom = marginBottom;
  }
  doc.end();
  return done;
}
