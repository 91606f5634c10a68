import zlib from 'node:zlib';
import express from 'express';
import request from 'supertest';
import { describe, expect, it, vi } from 'vitest';
import { compressAnswers } from './compression.ts';
import { cachedJson, encodedLike, jsonArrayBytes, sendCachedJson } from './cached-json.ts';

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

  it('makes a refresh ready in the encodings its previous answer was asked for, and no others', async () => {
    const before = cachedJson(text);
    await before.encoded('gzip');
    const next = cachedJson(text.replace('SP240000', 'SP249999'));
    const encoded = vi.spyOn(next, 'encoded');
    expect(await encodedLike(next, Promise.resolve(before))).toBe(next);
    expect(encoded.mock.calls).toEqual([['gzip']]);
    expect(next.formed()).toEqual(['gzip']);
    // Its gzip form is the new text, made before the swap: a caller after it waits on nothing.
    expect(zlib.gunzipSync(await next.encoded('gzip')).toString()).toContain('SP249999');
    // No previous answer (the first computation), or one that failed: compressed on first demand as before.
    expect((await encodedLike(cachedJson(text), undefined)).formed()).toEqual([]);
    expect((await encodedLike(cachedJson(text), Promise.reject(new Error('lost')))).formed()).toEqual([]);
  });

  it('joins JSON rows into the bytes of one array, multi-byte characters and all', () => {
    const rows = ['{"a":"Café ☀"}', '{"b":1}', '"x"'];
    expect(jsonArrayBytes(rows).toString()).toBe(`[${rows.join(',')}]`);
    expect(JSON.parse(jsonArrayBytes(rows).toString())).toEqual([{ a: 'Café ☀' }, { b: 1 }, 'x']);
    expect(jsonArrayBytes([]).toString()).toBe('[]');
    expect(cachedJson(jsonArrayBytes(rows)).text).toBe(`[${rows.join(',')}]`);
  });
});
