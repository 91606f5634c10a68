import PDFDocument from 'pdfkit';
import QRCode from 'qrcode';
import { pdfWithFonts } from '../lib/pdf.ts';

export type LabelDevice = { serial: string; label: string; site: string };

/** US Letter (the fleet's market), 3 x 4 labels of 2.5 x 2.5 inches with room to cut between them. */
const PAGE = { width: 612, height: 792 };
const COLS = 3;
const ROWS = 4;
const CELL = { width: 180, height: 180 };
const GAP = 12;
const QR_SIZE = 120;

/** Where label `i` of a page sits, in points from the top left (the test crops each one to decode it). */
export function labelCell(i: number) {
  const slot = i % (COLS * ROWS);
  const left = (PAGE.width - COLS * CELL.width - (COLS - 1) * GAP) / 2;
  const top = (PAGE.height - ROWS * CELL.height - (ROWS - 1) * GAP) / 2;
  return {
    x: left + (slot % COLS) * (CELL.width + GAP),
    y: top + Math.floor(slot / COLS) * (CELL.height + GAP),
    ...CELL,
    page: Math.floor(i / (COLS * ROWS)),
  };
}

/** What a label's code holds: the field app at that device, so a phone's own camera opens it too. */
export const labelUrl = (publicUrl: string, serial: string) =>
  `${publicUrl.replace(/\/$/, '')}/maintenance?device=${encodeURIComponent(serial)}`;

/**
 * A PDF of device labels: each a QR code of `<PUBLIC_URL>/maintenance?device=<serial>` (the `qrcode`
 * package's module matrix, drawn as vector squares: sharp at any printer's resolution), the serial printed
 * under it in bold, the device's name and site smaller beneath, a thin cut line around.
 */
export function labelsPdf(list: LabelDevice[], publicUrl: string, title: string): Promise<Buffer> {
  const doc = new PDFDocument({ size: [PAGE.width, PAGE.height], margin: 0, info: { Title: title, Creator: 'Fleet Portal' } });
  // DejaVu as 'Body' and 'Body-Bold': a device name in Greek or Vietnamese prints as written (lib/pdf.ts).
  const done = pdfWithFonts(doc);
  list.forEach((device, i) => {
    if (i > 0 && i % (COLS * ROWS) === 0) doc.addPage({ size: [PAGE.width, PAGE.height], margin: 0 });
    const { x, y } = labelCell(i);
    doc.save().lineWidth(0.5).dash(3, { space: 3 }).strokeColor('#999999').rect(x, y, CELL.width, CELL.height).stroke().restore();
    // Error correction M: a label scuffed at a beach still reads.
    const qr = QRCode.create(labelUrl(publicUrl, device.serial), { errorCorrectionLevel: 'M' });
    const n = qr.modules.size;
    const quiet = 4;
    const unit = QR_SIZE / (n + 2 * quiet);
    const qx = x + (CELL.width - QR_SIZE) / 2;
    const qy = y + 6;
    doc.save().fillColor('black');
    for (let r = 0; r < n; r++)
      for (let c = 0; c < n; c++)
        if (qr.modules.get(r, c)) doc.rect(qx + (c + quiet) * unit, qy + (r + quiet) * unit, unit + 0.01, unit + 0.01);
    doc.fill().restore();
    doc
      .font('Body-Bold')
      .fontSize(14)
      .fillColor('black')
      .text(device.serial, x + 4, qy + QR_SIZE + 2, { width: CELL.width - 8, align: 'center', lineBreak: false });
    const line = [device.label, device.site].filter(Boolean).join(' · ');
    doc
      .font('Body')
      .fontSize(7)
      .fillColor('#333333')
      .text(line, x + 6, qy + QR_SIZE + 22, { width: CELL.width - 12, align: 'center', height: 18, ellipsis: true });
  });
  doc.end();
  return done;
}
