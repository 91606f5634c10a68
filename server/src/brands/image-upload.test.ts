import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import multer from 'multer';
import request from 'supertest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorHandler } from '../lib/errors.ts';
import { imageUpload, localImageStore, sniffImage, uploadedImage, uploadError } from './image-upload.ts';

/** A valid 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8L')]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

describe('sniffImage', () => {
  it('recognises PNG, JPEG, GIF and WebP by their bytes', () => {
    expect(sniffImage(PNG)).toEqual({ ext: 'png', mime: 'image/png' });
    expect(sniffImage(JPEG)).toEqual({ ext: 'jpg', mime: 'image/jpeg' });
    expect(sniffImage(GIF)).toEqual({ ext: 'gif', mime: 'image/gif' });
    expect(sniffImage(Buffer.from('GIF87a....'))).toEqual({ ext: 'gif', mime: 'image/gif' });
    expect(sniffImage(WEBP)).toEqual({ ext: 'webp', mime: 'image/webp' });
  });

  it('refuses SVG, text, empty, truncated and look-alike content', () => {
    expect(sniffImage(SVG)).toBeUndefined();
    expect(sniffImage(Buffer.from('just some text, named logo.png'))).toBeUndefined();
    expect(sniffImage(Buffer.alloc(0))).toBeUndefined();
    expect(sniffImage(PNG.subarray(0, 7))).toBeUndefined();
    expect(sniffImage(Buffer.from('RIFF\x00\x00\x00\x00WAVEfmt '))).toBeUndefined();
    expect(sniffImage(Buffer.from('%PDF-1.7'))).toBeUndefined();
  });
});

describe('localImageStore', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'image-store-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes under a fresh random name in its folder (creating it) and answers the served URL', async () => {
    const store = localImageStore(dir, 'brands');
    const a = await store.put(PNG, { ext: 'png', mime: 'image/png' });
    const b = await store.put(PNG, { ext: 'png', mime: 'image/png' });
    expect(a).toMatch(/^\/uploads\/brands\/[0-9a-f]{32}\.png$/);
    expect(b).not.toBe(a);
    expect(fs.readFileSync(path.join(dir, 'brands', path.basename(a)))).toEqual(PNG);
  });

  it('removes only files it created, never seeded logos or anything outside its folder', async () => {
    const store = localImageStore(dir, 'brands');
    const own = await store.put(PNG, { ext: 'png', mime: 'image/png' });
    fs.writeFileSync(path.join(dir, 'brands', 'sunstop.svg'), SVG);
    fs.writeFileSync(path.join(dir, 'secret.txt'), 'keep');
    fs.mkdirSync(path.join(dir, 'profiles'));
    const other = path.join(dir, 'profiles', `${'a'.repeat(32)}.png`);
    fs.writeFileSync(other, PNG);

    for (const url of [
      '/uploads/brands/sunstop.svg',
      '/uploads/brands/../secret.txt',
      `/uploads/brands/../profiles/${'a'.repeat(32)}.png`,
      `/uploads/profiles/${'a'.repeat(32)}.png`,
      'https://cdn.example.com/x.png',
      null,
      undefined,
    ]) {
      await store.remove(url);
    }
    expect(fs.existsSync(path.join(dir, 'brands', 'sunstop.svg'))).toBe(true);
    expect(fs.existsSync(path.join(dir, 'secret.txt'))).toBe(true);
    expect(fs.existsSync(other)).toBe(true);

    await store.remove(own);
    expect(fs.existsSync(path.join(dir, 'brands', path.basename(own)))).toBe(false);
    await expect(store.remove(own)).resolves.toBeUndefined();
  });
});

describe('imageUpload middleware', () => {
  const app = express();
  app.use(express.json());
  app.post('/up', imageUpload('image'), (req, res) => {
    const image = uploadedImage(req);
    res.json({ name: (req.body as { name?: string } | undefined)?.name ?? null, size: image?.bytes.length ?? null });
  });
  app.use(errorHandler(() => undefined));

  it('reads the file and the text fields', async () => {
    const res = await request(app).post('/up').field('name', 'Acme').attach('image', PNG, 'logo.png');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ name: 'Acme', size: PNG.length });
  });

  it('answers 413 for a file over 2 MB', async () => {
    const res = await request(app)
      .post('/up')
      .attach('image', Buffer.alloc(2 * 1024 * 1024 + 1, 1), 'big.png');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ image: ['Image must be at most 2 MB.'] });
  });

  it('accepts a file of exactly 2 MB', async () => {
    const res = await request(app)
      .post('/up')
      .attach('image', Buffer.alloc(2 * 1024 * 1024, 1), 'edge.png');
    expect(res.status).toBe(200);
    expect(res.body.size).toBe(2 * 1024 * 1024);
  });

  it('answers 400 for a second file, a file in another field, a huge field or a broken body', async () => {
    const two = await request(app).post('/up').attach('image', PNG, 'a.png').attach('image', PNG, 'b.png');
    expect(two.status).toBe(400);
    expect(two.body).toEqual({ image: ["Send one file, in the 'image' field."] });

    const other = await request(app).post('/up').attach('logo', PNG, 'a.png');
    expect(other.status).toBe(400);

    const huge = await request(app).post('/up').field('name', 'x'.repeat(20_000));
    expect(huge.status).toBe(400);
    expect(huge.body).toEqual({ name: ['Field value too long.'] });

    const broken = await request(app)
      .post('/up')
      .set('Content-Type', 'multipart/form-data; boundary=XYZ')
      .send('--XYZ\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nabc');
    expect(broken.status).toBe(400);
    const noBoundary = await request(app).post('/up').set('Content-Type', 'multipart/form-data').send('hello');
    expect(noBoundary.status).toBe(400);
  });

  it('lets other content types through untouched', async () => {
    const res = await request(app).post('/up').send({ x: 1 });
    expect(res.status).toBe(200);
    expect(res.body.size).toBeNull();
  });
});

describe('uploadError', () => {
  it('maps every parser failure to a 4xx', () => {
    for (const code of [
      'LIMIT_PART_COUNT',
      'LIMIT_FILE_COUNT',
      'LIMIT_FIELD_KEY',
      'LIMIT_FIELD_COUNT',
      'LIMIT_UNEXPECTED_FILE',
      'MISSING_FIELD_NAME',
    ] as const) {
      const e = uploadError(new multer.MulterError(code as multer.ErrorCode));
      expect(e.status, code).toBe(400);
    }
    expect(uploadError(new multer.MulterError('LIMIT_FILE_SIZE', 'image')).status).toBe(413);
    expect(uploadError(new Error('Unexpected end of form')).status).toBe(400);
  });
});
