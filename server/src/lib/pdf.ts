import { createRequire } from 'node:module';

/**
 * pdfkit's built-in Helvetica only encodes WinAnsi (about Latin-1): a site named 'Παραλία Βόρεια' or
 * 'Bãi biển Mỹ Khê' would come out as garbage. DejaVu Sans (Condensed, close to Helvetica's width)
 * covers Greek, Cyrillic and Vietnamese; pdfkit embeds only the glyphs used. Registered as 'Body' and
 * 'Body-Bold'. Answers the document's bytes once it is ended.
 */
export function pdfWithFonts(doc: PDFKit.PDFDocument): Promise<Buffer> {
  doc.registerFont('Body', FONT);
  doc.registerFont('Body-Bold', FONT_BOLD);
  const chunks: Buffer[] = [];
  return new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

const require = createRequire(import.meta.url);
const FONT = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf');
const FONT_BOLD = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf');
