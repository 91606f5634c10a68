/**
 * A video for Chromium's fake camera (`--use-file-for-fake-video-capture=<file>.y4m`): the first label of a
 * label PDF (GET /api/v1/deviceLabels), rendered grey by pdftoppm at 150 dpi and held in the middle of each
 * frame, as a phone held over a printed label would see it. Y4M is a text header, then per frame the line
 * FRAME and the raw I420 planes: luma (one byte a pixel), then the two chroma planes at half resolution
 * (128: no colour).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { labelCell } from '../../server/src/labels/index.ts';

const DPI = 150;

export function writeLabelVideo(pdf: Buffer, file: string, opts: { width?: number; height?: number; frames?: number } = {}) {
  const width = opts.width ?? 640;
  const height = opts.height ?? 480;
  const frames = opts.frames ?? 10;
  const base = file.replace(/\.y4m$/, '');
  fs.writeFileSync(`${base}.pdf`, pdf);
  execFileSync('pdftoppm', ['-gray', '-r', String(DPI), '-f', '1', '-l', '1', '-singlefile', `${base}.pdf`, base]);
  const pgm = fs.readFileSync(`${base}.pgm`);
  // P5 <width> <height> <max>, one whitespace, then the grey bytes.
  const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.toString('latin1', 0, 64))!;
  const pageWidth = Number(header[1]);
  const pixels = pgm.subarray(header[0].length);
  const px = (pt: number) => Math.round((pt * DPI) / 72);
  const cell = labelCell(0);
  const [cx, cy, cw, ch] = [px(cell.x), px(cell.y), Math.min(px(cell.width), width), Math.min(px(cell.height), height)];
  const luma = Buffer.alloc(width * height, 255);
  const left = Math.floor((width - cw) / 2);
  const top = Math.floor((height - ch) / 2);
  for (let y = 0; y < ch; y++)
    pixels.copy(luma, (top + y) * width + left, (cy + y) * pageWidth + cx, (cy + y) * pageWidth + cx + cw);
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  const y4m = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  fs.writeFileSync(file, Buffer.concat([y4m, ...Array.from({ length: frames }, () => frame)]));
  for (const f of [`${base}.pdf`, `${base}.pgm`]) fs.rmSync(f, { force: true });
  return path.resolve(file);
}
