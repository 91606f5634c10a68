/** Mail: the SMTP mailer, and the outbox every mail job passes through so none is lost when Redis is (outbox.ts). */
export { createMailer, type Mailer } from './mailer.ts';
export { outboxQueue, type OutboxOptions } from './outbox.ts';
