import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchLabels } from './api';

/** The label PDF is asked for with the query the server's declaration reads (devicesApi.labels). */
describe('fetchLabels', () => {
  afterEach(() => vi.unstubAllGlobals());

  const asked = async (...args: Parameters<typeof fetchLabels>) => {
    const fetchSpy = vi.fn(async () => new Response(new Blob(['%PDF-1.7']), { headers: { 'content-type': 'application/pdf' } }));
    vi.stubGlobal('fetch', fetchSpy);
    const blob = await fetchLabels(...args);
    expect(await blob.text()).toBe('%PDF-1.7');
    const [url, init] = fetchSpy.mock.calls[0] as unknown as [string, RequestInit];
    return { url, auth: new Headers(init.headers).get('Authorization') };
  };

  it('names the serials comma-separated, a site or a brand, with the given token', async () => {
    const named = await asked({ serials: ['SN 1', 'SN/2'] }, 'key');
    expect(named.url).toBe('/api/v1/deviceLabels?serials=SN+1%2CSN%2F2');
    expect(new URLSearchParams(named.url.split('?')[1]).get('serials')).toBe('SN 1,SN/2');
    expect(named.auth).toBe('Token key');
    expect((await asked({ site: 7 }, 'key')).url).toBe('/api/v1/deviceLabels?site=7');
    expect((await asked({ brand: 3 }, 'key')).url).toBe('/api/v1/deviceLabels?brand=3');
  });
});
