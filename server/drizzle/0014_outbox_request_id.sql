-- The request id travels in the outbox row: every server and worker runs the relay, and the pass that hands a
-- job to the queue may run in another process than the request that recorded it (mail/outbox.ts).
ALTER TABLE "outbox" ADD COLUMN "request_id" text;