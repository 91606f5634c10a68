/**
 * A video for Chromium's fake camera (`--use-file-for-fake-video-capture=<file>.y4m`): a QR code of `text`
 * drawn black on white in the middle of each frame, as a phone held over a label would see it. Y4M is a
 * text header, then per frame the line FRAME and the raw I420 planes: luma (one byte a pixel), then the
 * two chroma planes at half resolution (128: no colour).
 */
import fs from 'node:fs';
import QRCode from 'qrcode';

export function writeQrVideo(file: string, text: string, opts: { width?: number; height?: number; frames?: number } = {}) {
  const width = opts.width ?? 640;
  const height = opts.height ?? 480;
  const frames = opts.frames ?? 10;
  const qr = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const n = qr.modules.size;
  const quiet = 4;
  const scale = Math.floor(Math.min(width, height) / (n + 2 * quiet));
  const left = Math.floor((width - n * scale) / 2);
  const top = Math.floor((height - n * scale) / 2);
  const luma = Buffer.alloc(width * height, 255);
  for (let y = 0; y < n * scale; y++)
    for (let x = 0; x < n * scale; x++)
      if (qr.modules.get(Math.floor(y / scale), Math.floor(x / scale))) luma[(top + y) * width + left + x] = 0;
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  fs.writeFileSync(file, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}
