import { describe, expect, it } from 'vitest';
import { failureMessage, fieldMessages, GENERIC_FAILURE, serverReason } from './failure';
import { HttpError } from './http';

describe('serverReason', () => {
  it('reads an unreachable server, a detail, then a 400 message', () => {
    expect(serverReason(new HttpError(0, null))).toBe('The server could not be reached.');
    expect(serverReason(new HttpError(500, { detail: 'The database is not answering.' }))).toBe('The database is not answering.');
    expect(serverReason(new HttpError(400, { name: ['please create new name'] }))).toBe('please create new name');
  });

  it('says nothing for a bare failure or an error that is not an answer', () => {
    expect(serverReason(new HttpError(500, {}))).toBeNull();
    expect(serverReason(new HttpError(400, {}))).toBeNull();
    expect(serverReason(new Error('boom'))).toBeNull();
  });
});

describe('failureMessage', () => {
  it('falls back to the status, then to a client error, then to the plain sentence', () => {
    expect(failureMessage(new HttpError(502, null))).toBe(`${GENERIC_FAILURE} (HTTP 502)`);
    expect(failureMessage(new Error('The start date must be on or before the end date.'))).toBe(
      'The start date must be on or before the end date.',
    );
    expect(failureMessage('nope')).toBe(GENERIC_FAILURE);
    expect(failureMessage(new HttpError(500, { detail: 'Server down' }))).toBe('Server down');
  });
});

describe('fieldMessages', () => {
  it('keeps the first message of each field of a 400, not the detail', () => {
    expect(fieldMessages(new HttpError(400, { name: [1, 'taken', 'other'], batch_no: 'bad', detail: 'no' }))).toEqual({
      name: 'taken',
      batch_no: 'bad',
    });
    expect(fieldMessages(new HttpError(500, { name: ['taken'] }))).toEqual({});
  });
});
