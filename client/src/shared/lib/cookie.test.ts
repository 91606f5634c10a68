import { afterEach, describe, expect, it, vi } from 'vitest';
import { deleteCookie, readCookie, writeSessionCookie } from './cookie';

/**
 * The session cookie writer (the userToken cookie, SECURITY.md): a session cookie (no Expires/Max-Age) on
 * path /, SameSite=Lax always, Secure when the page is served over https. No DOM here: document.cookie is
 * a recorder of what the writer sets, and the jar it reads back.
 */
function fakeBrowser(protocol: 'http:' | 'https:') {
  const written: string[] = [];
  const jar = new Map<string, string>();
  vi.stubGlobal('window', { location: { protocol } });
  vi.stubGlobal('document', {
    get cookie() {
      return [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    },
    set cookie(line: string) {
      written.push(line);
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      if (attrs.some((a) => /^max-age=0$/i.test(a))) jar.delete(name);
      else jar.set(name, value);
    },
  });
  return written;
}
const attributes = (line: string) =>
  line
    .split(';')
    .slice(1)
    .map((s) => s.trim());

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('session cookie', () => {
  it('over http: SameSite=Lax on path /, no Secure (the browser would drop it), no expiry', () => {
    const written = fakeBrowser('http:');
    writeSessionCookie('userToken', 'abc123');
    expect(written).toHaveLength(1);
    expect(written[0]!.startsWith('userToken=abc123;')).toBe(true);
    expect(attributes(written[0]!)).toEqual(['path=/', 'SameSite=Lax']);
    expect(readCookie('userToken')).toBe('abc123');
  });

  it('over https: Secure as well', () => {
    const written = fakeBrowser('https:');
    writeSessionCookie('userToken', 'abc123');
    const attrs = attributes(written[0]!);
    expect(attrs).toContain('Secure');
    expect(attrs).toContain('SameSite=Lax');
    expect(attrs.some((a) => /^(expires|max-age)=/i.test(a))).toBe(false);
  });

  it('encodes the value, and deleting keeps SameSite and empties the jar', () => {
    const written = fakeBrowser('https:');
    writeSessionCookie('userToken', 'a b;c');
    expect(written[0]!.startsWith('userToken=a%20b%3Bc;')).toBe(true);
    expect(readCookie('userToken')).toBe('a b;c');
    deleteCookie('userToken');
    expect(attributes(written[1]!)).toEqual(['path=/', 'Max-Age=0', 'SameSite=Lax']);
    expect(readCookie('userToken')).toBeUndefined();
  });
});
