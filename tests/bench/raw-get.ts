import http from 'node:http';

/**
 * One GET, its body read whole as it came, not decoded: the answer's time as the server gives it. fetch would
 * gunzip it on the bench's own thread (a second of the whole device list's 116 MB at 100,000 devices on a
 * loaded host), which is the caller's work, not the server's.
 */
export function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ ms: number; status: number; encoding: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    http
      .get(url, { headers }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () =>
          resolve({
            ms: performance.now() - t0,
            status: res.statusCode ?? 0,
            encoding: res.headers['content-encoding'],
            body: Buffer.concat(parts),
          }),
        );
        res.on('error', reject);
      })
      .on('error', reject);
  });
}
