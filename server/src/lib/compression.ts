import compression from 'compression';
import type { RequestHandler } from 'express';

/**
 * Compresses every text answer (JSON, HTML, CSS, JS, CSV, SVG...) with brotli or gzip as the caller
 * accepts; the 11 MB device list of a 10,000-device fleet leaves as a few hundred KB. Which types count
 * as text is mime-db's list (the `compressible` package behind `compression`), so .xlsx, .pdf and images,
 * already compressed, are sent as they are. Answers of 1 KB or less are not worth a header and stay plain.
 *
 * What it does not touch, and why that is safe:
 * - Socket.IO: the engine attaches to the HTTP server itself, ahead of Express, so its long-polling and
 *   WebSocket traffic never passes here (WebSocket has its own per-message deflate).
 * - Streaming downloads (report files, CSV): `compression` streams too, flushing as zlib fills its buffer;
 *   nothing is held until the end.
 * - Precompressed static files (static-client.ts) already carry Content-Encoding, which makes
 *   `compression` step aside.
 * Brotli quality 4 and gzip level 6 (the library's defaults) compress the device list in about 20 ms.
 */
export function compressAnswers(): RequestHandler {
  const compress = compression({ threshold: 1024 });
  // A caller that accepts no encoding gets its answer as it is: `compression` would wrap the answer's
  // writes all the same to find that out (devices send no Accept-Encoding; tests/bench/middleware.bench.ts
  // measures this with the security headers).
  return (req, res, next) => (req.headers['accept-encoding'] ? compress(req, res, next) : next());
}
