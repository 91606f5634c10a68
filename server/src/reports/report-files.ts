import ExcelJS from 'exceljs';
import PDFDocument from 'pdfkit';
import { pdfWithFonts } from '../lib/pdf.ts';
import { plural, warningText, type ReportAnswer, type ReportDevice } from '@fleet/shared';

type Totals = ReportAnswer['totals'];

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** One column of the report table, the same in the spreadsheet and the PDF. */
type Column = {
  /** The header, whole in both files (the PDF wraps it within its column). */
  header: string;
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
  return value.toLocaleString('en-US', {
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
    useGrouping: numFmt.includes(','),
  });
}

/** A device's warnings in words (WARNING_TEXT), never its codes: 'Batch expired, Low battery'. */
export const warningsInWords = (codes: readonly string[]) => codes.map(warningText).join(', ');

/**
 * The PDF widths add up to A4 landscape inside its margins (782 pt). Every header and value wraps within
 * its column (no cut text): the numeric columns are as wide as their longest header word, and the room
 * goes to the words (names, addresses, warnings).
 */
export const REPORT_COLUMNS: Column[] = [
  { header: 'Site/Event Name', value: (r) => r.name, total: () => 'Total', xlsxWidth: 30, pdfWidth: 80 },
  { header: 'Serial', value: (r) => r.serial, xlsxWidth: 12, pdfWidth: 48 },
  { header: 'Brand', value: (r) => r.brand ?? 'None', xlsxWidth: 16, pdfWidth: 50 },
  { header: 'County', value: (r) => r.county ?? '', xlsxWidth: 22, pdfWidth: 55 },
  { header: 'Address', value: (r) => r.address, xlsxWidth: 40, pdfWidth: 83 },
  { header: 'Left Pump', value: (r) => r.left_pump_type, xlsxWidth: 12, pdfWidth: 45 },
  {
    header: 'Left Pump Dispenses',
    value: (r) => r.left_dispensed,
    total: (t) => t.left_dispensed,
    numFmt: INT,
    xlsxWidth: 12,
    pdfWidth: 44,
  },
  { header: 'Right Pump', value: (r) => r.right_pump_type, xlsxWidth: 12, pdfWidth: 45 },
  {
    header: 'Right Pump Dispenses',
    value: (r) => r.right_dispensed,
    total: (t) => t.right_dispensed,
    numFmt: INT,
    xlsxWidth: 12,
    pdfWidth: 44,
  },
  {
    header: 'Sunscreen Dispensed',
    value: (r) => r.sunscreen_dispensed,
    total: (t) => t.sunscreen_dispensed,
    numFmt: INT,
    xlsxWidth: 12,
    pdfWidth: 44,
  },
  {
    header: 'Sanitizer Dispensed',
    value: (r) => r.sanitizer_dispensed,
    total: (t) => t.sanitizer_dispensed,
    numFmt: INT,
    xlsxWidth: 12,
    pdfWidth: 44,
  },
  {
    header: 'Sunscreen Used (fl.oz.)',
    value: (r) => r.sunscreen_fl_oz,
    total: (t) => t.sunscreen_fl_oz,
    numFmt: FL_OZ,
    xlsxWidth: 14,
    pdfWidth: 46,
  },
  {
    header: 'Sanitizer Used (fl.oz.)',
    value: (r) => r.sanitizer_fl_oz,
    total: (t) => t.sanitizer_fl_oz,
    numFmt: FL_OZ,
    xlsxWidth: 14,
    pdfWidth: 46,
  },
  { header: 'Battery %', value: (r) => r.battery_percent, numFmt: '0.0', xlsxWidth: 10, pdfWidth: 34 },
  { header: 'Warnings', value: (r) => warningsInWords(r.warnings), xlsxWidth: 30, pdfWidth: 74 },
];

const headerLines = (r: ReportAnswer) => [
  `Range: ${r.range_label} (${plural(r.days, 'day')}; each site in its own time zone)`,
  `Devices: ${formatNumber(r.counts.devices, INT)}    Brands: ${formatNumber(r.counts.brands, INT)}    Counties: ${formatNumber(r.counts.counties, INT)}`,
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
const FONT_SIZE = 7;
/** Room around a cell's text, each side. */
const PAD = 2;

/**
 * The report as a PDF: A4 landscape, the header, then the table (its header repeated on every page), page
 * numbers. Each cell wraps within its column and a row is as tall as its tallest cell: a header or a value
 * is never cut ('Sunscre...', 'BATCH_E...' before).
 */
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

  type Cells = (string | number | null)[];
  const text = (value: string | number | null) => (value == null ? '' : String(value));
  const useFont = (bold: boolean) => doc.font(bold ? 'Body-Bold' : 'Body').fontSize(FONT_SIZE);
  /** The height a row of cells needs, each wrapped to its column. */
  const rowHeight = (values: Cells, bold = false) => {
    useFont(bold);
    const heights = REPORT_COLUMNS.map((c, i) => doc.heightOfString(text(values[i] ?? null), { width: c.pdfWidth - 2 * PAD }));
    return Math.ceil(Math.max(...heights)) + 2 * PAD;
  };
  const row = (values: Cells, y: number, opts: { bold?: boolean; fill?: string } = {}) => {
    const height = rowHeight(values, opts.bold);
    if (opts.fill)
      doc
        .rect(MARGIN, y, doc.page.width - 2 * MARGIN, height)
        .fill(opts.fill)
        .fillColor('black');
    useFont(!!opts.bold);
    let x = MARGIN;
    REPORT_COLUMNS.forEach((c, i) => {
      const value = values[i] ?? null;
      doc.text(text(value), x + PAD, y + PAD, { width: c.pdfWidth - 2 * PAD, align: c.numFmt ? 'right' : 'left' });
      x += c.pdfWidth;
    });
    return y + height;
  };
  const headerCells = REPORT_COLUMNS.map((c) => c.header);
  const tableHeader = (y: number) => row(headerCells, y, { bold: true, fill: '#dce6f0' });
  const bottom = () => doc.page.height - MARGIN - 10;
  /** A row that would cross the foot of the page starts the next page, under the header again. */
  const placed = (values: Cells, y: number, bold = false) => {
    if (y + rowHeight(values, bold) <= bottom()) return y;
    doc.addPage();
    return tableHeader(MARGIN);
  };

  doc.font('Body-Bold').fontSize(16).text(report.title, MARGIN, MARGIN);
  doc.font('Body').fontSize(10);
  for (const line of headerLines(report)) doc.text(line);
  let y = tableHeader(doc.y + 8);
  report.devices.forEach((r, i) => {
    const values = REPORT_COLUMNS.map((c) => formatNumber(c.value(r), c.numFmt));
    y = row(values, placed(values, y), i % 2 ? { fill: '#f5f7fa' } : {});
  });
  const totals = REPORT_COLUMNS.map((c) => formatNumber(c.total?.(report.totals) ?? null, c.numFmt));
  row(totals, placed(totals, y, true), { bold: true, fill: '#e8edf3' });

  const pages = doc.bufferedPageRange();
  for (let i = pages.start; i < pages.start + pages.count; i++) {
    doc.switchToPage(i);
    // Writing inside the bottom margin would start a new page: lift the margin for the footer.
    const marginBottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('Body')
      .fontSize(8)
      .text(`${report.range_label}    Page ${i + 1} of ${pages.count}`, MARGIN, doc.page.height - MARGIN + 8, {
        width: doc.page.width - 2 * MARGIN,
        align: 'right',
        lineBreak: false,
      });
    doc.page.margins.bottom = marginBottom;
  }
  doc.end();
  return done;
}
