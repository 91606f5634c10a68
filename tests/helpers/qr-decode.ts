import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jsQR from 'jsqr';

/** A binary PPM (P6) as RGBA pixels, what jsQR reads. pdftoppm writes PPM by default. */
export function readPpm(file: Buffer): { width: number; height: number; rgba: Uint8ClampedArray } {
  // Header: P6 <width> <height> <maxval> then one whitespace byte, then the pixels.
  const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(file.subarray(0, 64).toString('latin1'));
  if (!header) throw new Error('not a binary PPM');
  const width = Number(header[1]);
  const height = Number(header[2]);
  const pixels = file.subarray(header[0].length);
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    rgba[i * 4] = pixels[i * 3]!;
    rgba[i * 4 + 1] = pixels[i * 3 + 1]!;
    rgba[i * 4 + 2] = pixels[i * 3 + 2]!;
    rgba[i * 4 + 3] = 255;
  }
  return { width, height, rgba };
}

/** Renders each page of a PDF with pdftoppm at `dpi` and answers the pages as RGBA images. */
export function renderPdf(pdf: Buffer, dpi = 150): { width: number; height: number; rgba: Uint8ClampedArray }[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'labels-'));
  try {
    fs.writeFileSync(path.join(dir, 'in.pdf'), pdf);
    execFileSync('pdftoppm', ['-r', String(dpi), path.join(dir, 'in.pdf'), path.join(dir, 'page')]);
    return fs
      .readdirSync(dir)
      .filter((f) => f.endsWith('.ppm'))
      .sort()
      .map((f) => readPpm(fs.readFileSync(path.join(dir, f))));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Decodes the one QR code inside a rectangle (in points at `dpi`) of a rendered page; null when none reads. */
export function decodeRegion(
  page: { width: number; rgba: Uint8ClampedArray },
  box: { x: number; y: number; width: number; height: number },
  dpi = 150,
): string | null {
  const k = dpi / 72;
  const x0 = Math.round(box.x * k);
  const y0 = Math.round(box.y * k);
  const w = Math.round(box.width * k);
  const h = Math.round(box.height * k);
  const out = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++)
    out.set(page.rgba.subarray(((y0 + y) * page.width + x0) * 4, ((y0 + y) * page.width + x0 + w) * 4), y * w * 4);
  return jsQR(out, w, h)?.data ?? null;
}
