import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';

/** json-text-worker.js run as MapLibre's worker would run it (importScripts), on a worker-like `self`. */
const script = readFileSync(new URL('./json-text-worker.js', import.meta.url), 'utf8');
type Handler = (mapId: string, params: { data?: unknown }) => unknown;
type WorkerSelf = { worker?: { actor: { messageHandlers: Record<string, Handler> } }; __fleetJsonText?: boolean };
const run = (self: WorkerSelf) => new Function('self', script)(self) as void;

function workerWithLoad() {
  const received: unknown[] = [];
  const self: WorkerSelf = {
    worker: { actor: { messageHandlers: { LD: (_mapId, params) => (received.push(params.data), { loaded: true }) } } },
  };
  return { self, received, load: (params: { data?: unknown }) => self.worker!.actor.messageHandlers.LD!('map', params) };
}

describe('json-text-worker.js (MapLibre worker side of setDataAsText)', () => {
  it('parses data sent as JSON text before MapLibre loads it, and answers what MapLibre answers', () => {
    const worker = workerWithLoad();
    run(worker.self);
    const collection = {
      type: 'FeatureCollection',
      features: [{ type: 'Feature', geometry: { type: 'Point', coordinates: [-90, 30] }, properties: { serial: 'A1' } }],
    };
    expect(worker.load({ data: new String(JSON.stringify(collection)) })).toEqual({ loaded: true });
    expect(worker.received).toEqual([collection]);
  });

  it('parses data sent as UTF-8 JSON bytes (the pins, transferred), non-ASCII labels included', () => {
    const worker = workerWithLoad();
    run(worker.self);
    const collection = {
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [-8.6, 41.1] },
          properties: { label: 'Praia da Luz – bar "Sol" ☀' },
        },
      ],
    };
    expect(worker.load({ data: new TextEncoder().encode(JSON.stringify(collection)) })).toEqual({ loaded: true });
    expect(worker.received).toEqual([collection]);
  });

  it('passes objects, diffs and URL loads through untouched', () => {
    const worker = workerWithLoad();
    run(worker.self);
    const collection = { type: 'FeatureCollection', features: [] };
    worker.load({ data: collection });
    worker.load({});
    expect(worker.received[0]).toBe(collection);
    expect(worker.received[1]).toBeUndefined();
  });

  it('wraps the handler once when loaded again (a second map on the page)', () => {
    const worker = workerWithLoad();
    run(worker.self);
    const wrapped = worker.self.worker!.actor.messageHandlers.LD;
    run(worker.self);
    expect(worker.self.worker!.actor.messageHandlers.LD).toBe(wrapped);
  });

  it('throws where MapLibre has no such handler, so the page keeps sending objects', () => {
    expect(() => run({})).toThrow(/loadData/);
    expect(() => run({ worker: { actor: { messageHandlers: {} } } })).toThrow(/loadData/);
  });
});

describe('json-text.ts: whole data waits while the workers load the script', () => {
  it('is waiting from enableJsonText until it settles, either way', async () => {
    vi.stubGlobal('window', { location: { href: 'http://portal.test/' } });
    const { enableJsonText, jsonTextWaiting, afterJsonText } = await import('./json-text');
    expect(jsonTextWaiting()).toBe(false);
    let load!: () => void;
    void enableJsonText(() => new Promise<void>((resolve) => (load = resolve)));
    expect(jsonTextWaiting()).toBe(true);
    const sent: string[] = [];
    afterJsonText(() => sent.push('pins'));
    expect(sent).toEqual([]);
    load();
    await Promise.resolve();
    await Promise.resolve();
    expect(jsonTextWaiting()).toBe(false);
    expect(sent).toEqual(['pins']);
    vi.unstubAllGlobals();
  });
});

describe('setJsonBytes', () => {
  it('moves the bytes once, and says so when they were moved before (the caller asks for them anew)', async () => {
    vi.stubGlobal('window', { location: { href: 'http://portal.test/' } });
    const { enableJsonText, setJsonBytes } = await import('./json-text');
    await enableJsonText(() => Promise.resolve());
    const set: unknown[] = [];
    const source = { setData: (data: unknown) => set.push(data) } as unknown as Parameters<typeof setJsonBytes>[0];
    // The workers read JSON: the bytes themselves are posted (MapLibre transfers their buffer), not a copy.
    const json = new TextEncoder().encode(JSON.stringify({ type: 'FeatureCollection', features: [] }));
    expect(setJsonBytes(source, json)).toBe(true);
    expect(set).toHaveLength(1);
    expect(set[0]).toBe(json);
    // Bytes already moved (a transferred buffer is empty): nothing is sent.
    expect(setJsonBytes(source, new Uint8Array(0))).toBe(false);
    expect(set).toHaveLength(1);
    vi.unstubAllGlobals();
  });
});
