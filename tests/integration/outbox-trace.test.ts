import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobQueue } from '@fleet/workers';
import { outbox } from '../../server/src/db/schema.ts';
import { outboxQueue } from '../../server/src/mail/outbox.ts';
import { currentRequestId, outboxTrace, requestContext } from '../../server/src/ops/logger.ts';
import { startHarness, type Harness } from '../helpers/harness.ts';

/**
 * Promise: a job recorded in the outbox during a request is handed to the queue under that request's id,
 * whichever process relays it. Every server and worker runs the relay (scaled run), so the process that
 * records a mail is often not the one that hands it over; the id travels in the row (CI once saw a worker
 * run a report mail without its request id, because the id lived in the recording server's memory).
 * Two outboxes on one database stand for two processes.
 */
describe('the outbox carries the request id to whichever process relays the job', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness('pglite', {}, { seed: false });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('a job recorded by one process and handed over by another runs under the recording request', async () => {
    const down: JobQueue<string> = {
      enqueue: async () => {
        throw new Error('Redis is not reachable from this process');
      },
      drain: async () => undefined,
      close: async () => undefined,
    };
    const handedOver: { key: string | undefined; requestId: string | undefined }[] = [];
    const up: JobQueue<string> = {
      enqueue: async (_name, _payload, o = {}) => {
        handedOver.push({ key: o.idempotencyKey, requestId: currentRequestId() });
      },
      drain: async () => undefined,
      close: async () => undefined,
    };
    const validate = () => undefined;
    const options = { validate, trace: outboxTrace, intervalMs: 60_000, enqueueTimeoutMs: 500 };
    const recorder = outboxQueue(h.database.db, down, options);
    const relayer = outboxQueue(h.database.db, up, options);
    try {
      await requestContext.run({ requestId: 'req-recorded-here' }, () =>
        recorder.enqueue('mail', { to: 'a@example.test' }, { idempotencyKey: 'trace-key-1' }),
      );
      // A job recorded outside any request is handed over without one.
      await recorder.enqueue('mail', { to: 'b@example.test' }, { idempotencyKey: 'trace-key-2' });
      await recorder.relay();
      const rows = await h.database.db.select({ key: outbox.idempotencyKey, requestId: outbox.requestId }).from(outbox);
      expect(rows).toEqual(
        expect.arrayContaining([
          { key: 'trace-key-1', requestId: 'req-recorded-here' },
          { key: 'trace-key-2', requestId: null },
        ]),
      );

      // The other process's relay pass runs outside any request.
      expect(currentRequestId()).toBeUndefined();
      await relayer.relay();
      expect(handedOver).toEqual([
        { key: 'trace-key-1', requestId: 'req-recorded-here' },
        { key: 'trace-key-2', requestId: undefined },
      ]);
    } finally {
      await recorder.close();
      await relayer.close();
    }
  });
});
