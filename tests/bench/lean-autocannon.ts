/**
 * autocannon, with its client keeping no answer bodies. autocannon appends every chunk of an answer to a
 * string (`req.body += data`, PipelinedRequestsQueue#addBody), for checks this bench never asks for
 * (expectBody, verifyBody, a request's onResponse); a Buffer added to a string is decoded as UTF-8, and a
 * gzipped body is not UTF-8: the decoder's slow path. With the client on the same two cores as the server,
 * that decoding set the pace of the compressed calls. The same bodies from a bare `http` server in one
 * scratch round: 253 kB gzipped, 241-270 req/s (p99 1.2-1.4 s); the same bytes without the gzip header just
 * as slow; the 702 kB JSON they were made from, 796-922 req/s. A browser never decodes a gzipped body as
 * text. Bytes are still counted (addByteCount); only the string is not built.
 */
import { createRequire } from 'node:module';
import autocannon from 'autocannon';

type Queue = { prototype: { addBody: (data: Buffer) => void } };
const PipelinedRequestsQueue = createRequire(import.meta.url)('autocannon/lib/pipelinedRequestsQueue.js') as Queue;
PipelinedRequestsQueue.prototype.addBody = function keepNoBody() {};

export default autocannon;
