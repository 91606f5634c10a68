import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import { compressAnswers } from './compression.ts';
import { preferred, staticClient } from './static-client.ts';

/** A built client as Vite and the precompress plugin leave it: hashed assets with .br/.gz beside them. */
function buildDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'static-client-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  const js = 'export const x = 1;\n'.repeat(200);
  fs.writeFileSync(path.join(dir, 'index.html'), `<!doctype html><title>x</title>${'<!-- pad -->'.repeat(200)}`);
  fs.writeFileSync(path.join(dir, 'maintenance.html'), `<!doctype html><title>Maintenance</title>${'<!-- pad -->'.repeat(200)}`);
  fs.writeFileSync(path.join(dir, 'assets', 'index-AbC123.js'), js);
  fs.writeFileSync(path.join(dir, 'assets', 'index-AbC123.js.br'), zlib.brotliCompressSync(js));
  fs.writeFileSync(path.join(dir, 'assets', 'index-AbC123.js.gz'), zlib.gzipSync(js));
  fs.writeFileSync(path.join(dir, 'assets', 'plain-Zz9.css'), 'a{color:red}'.repeat(200));
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg/>');
  const sw = 'self.addEventListener("fetch", () => {});\n'.repeat(100);
  fs.writeFileSync(path.join(dir, 'sw.js'), sw);
  fs.writeFileSync(path.join(dir, 'sw.js.br'), zlib.brotliCompressSync(sw));
  fs.writeFileSync(path.join(dir, 'manifest.webmanifest'), '{"name":"Field App"}');
  return { dir, js };
}

describe('static client and compression', () => {
  let app: express.Express;
  let js: string;
  beforeAll(() => {
    const built = buildDir();
    js = built.js;
    app = express();
    app.use(compressAnswers());
    app.get(
      '/api/v1/big',
      (_req, res) => void res.json({ rows: Array.from({ length: 500 }, (_, i) => ({ i, name: `row ${i}` })) }),
    );
    app.get('/api/v1/small', (_req, res) => void res.json({ ok: true }));
    app.get(
      '/download.xlsx',
      (_req, res) =>
        void res.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').send(Buffer.alloc(4096, 7)),
    );
    app.use(staticClient(built.dir));
  });

  it('sends the brotli file built beside a hashed asset, typed as the asset, cached for a year', async () => {
    // A browser's header: gzip listed first, brotli still chosen. supertest decodes br and gzip itself.
    const res = await request(app).get('/assets/index-AbC123.js').set('Accept-Encoding', 'gzip, deflate, br, zstd');
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    expect(res.headers['content-length']).toBe(String(zlib.brotliCompressSync(js).length));
    expect(res.text).toBe(js);
  });

  it('sends the gzip file to a gzip-only caller and the plain file to one that accepts nothing', async () => {
    const gz = await request(app).get('/assets/index-AbC123.js').set('Accept-Encoding', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toBe(js);
    const plain = await request(app).get('/assets/index-AbC123.js').set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(js);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('compresses an asset without a precompressed copy on the fly; names outside assets/ are cached briefly', async () => {
    const css = await request(app).get('/assets/plain-Zz9.css').set('Accept-Encoding', 'gzip');
    expect(css.headers['content-encoding']).toBe('gzip');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await request(app).get('/favicon.svg')).headers['cache-control']).toBe('public, max-age=3600');
  });

  it('revalidates index.html on every route of the single-page app', async () => {
    for (const route of ['/', '/index.html', '/status', '/maintenance-result']) {
      const res = await request(app).get(route).set('Accept-Encoding', 'gzip');
      expect(res.status, route).toBe(200);
      expect(res.headers['cache-control'], route).toBe('no-cache');
      expect(res.text).toContain('<title>x</title>');
    }
  });

  it("answers /maintenance with the field app's own page (maintenance.html), revalidated too", async () => {
    for (const route of ['/maintenance', '/maintenance/', '/maintenance?device=SP1', '/maintenance.html']) {
      const res = await request(app).get(route).set('Accept-Encoding', 'gzip');
      expect(res.status, route).toBe(200);
      expect(res.headers['cache-control'], route).toBe('no-cache');
      expect(res.text, route).toContain('<title>Maintenance</title>');
    }
  });

  it("serves the field app's service worker and manifest with no-cache, compressed or not, and the favicon briefly cached", async () => {
    for (const [file, encoding] of [
      ['/sw.js', 'br'],
      ['/sw.js', 'identity'],
      ['/manifest.webmanifest', 'gzip'],
    ] as const) {
      const res = await request(app).get(file).set('Accept-Encoding', encoding);
      expect(res.status, file).toBe(200);
      expect(res.headers['cache-control'], `${file} ${encoding}`).toBe('no-cache');
    }
    expect((await request(app).get('/favicon.svg')).headers['cache-control']).toBe('public, max-age=3600');
  });

  it('compresses JSON answers over 1 KB, not small ones, and never an already compressed download', async () => {
    const big = await request(app).get('/api/v1/big').set('Accept-Encoding', 'br');
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.body.rows).toHaveLength(500);
    expect((await request(app).get('/api/v1/small').set('Accept-Encoding', 'gzip')).headers['content-encoding']).toBeUndefined();
    expect((await request(app).get('/download.xlsx').set('Accept-Encoding', 'gzip')).headers['content-encoding']).toBeUndefined();
  });
});

describe('preferred encoding', () => {
  const both = [{ name: 'br' }, { name: 'gzip' }];
  it.each([
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['*', 'br'],
    ['identity', undefined],
    [undefined, undefined],
  ])('%s -> %s', (header, name) => {
    expect(preferred(header, both)?.name).toBe(name);
  });
});
