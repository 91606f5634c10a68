import zlib from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { compressAnswers } from './compression.ts';
import { cachedJson, jsonArrayBytes, sendCachedJson } from './cached-json.ts';

describe('cached JSON answers', () => {
  const text = JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ serial: `SP${240000 + i}`, is_online: i % 3 === 0 })));

  it('sends brotli, gzip or plain text as accepted, each form made once and the same bytes every time', async () => {
    const answer = cachedJson(text);
    const encoded = vi.spyOn(answer, 'encoded');
    const app = express();
    // Behind the compression middleware, as in app.ts: it must not compress the encoded body again.
    app.use(compressAnswers());
    app.get('/list', (req, res) => void sendCachedJson(req, res, answer));
    const br = await request(app).get('/list').set('Accept-Encoding', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(br.text).toBe(text);
    const gz = await request(app).get('/list').set('Accept-Encoding', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.text).toBe(text);
    const plain = await request(app).get('/list').set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.text).toBe(text);
    await request(app).get('/list').set('Accept-Encoding', 'br');
    expect(encoded).toHaveBeenCalledTimes(3);
    expect(zlib.gunzipSync(await answer.encoded('gzip')).toString()).toBe(text);
    expect(await answer.encoded('br')).toBe(await answer.encoded('br'));
  });

  it('joins JSON rows into the bytes of one array, multi-byte characters and all', () => {
    const rows = ['{"a":"Café ☀"}', '{"b":1}', '"x"'];
    expect(jsonArrayBytes(rows).toString()).toBe(`[${rows.join(',')}]`);
    expect(JSON.parse(jsonArrayBytes(rows).toString())).toEqual([{ a: 'Café ☀' }, { b: 1 }, 'x']);
    expect(jsonArrayBytes([]).toString()).toBe('[]');
    expect(cachedJson(jsonArrayBytes(rows)).text).toBe(`[${rows.join(',')}]`);
  });
});
