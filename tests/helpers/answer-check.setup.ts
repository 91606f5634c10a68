import { afterEach, expect } from 'vitest';
import { recordAnswerMismatches, type AnswerMismatch } from '../../server/src/openapi/answer-check.ts';

/**
 * Every answer a test provokes from a declared endpoint is parsed with its declared schema
 * (server/src/openapi/answer-check.ts); a test whose calls got an answer that does not match fails here.
 */
const mismatches: AnswerMismatch[] = [];
recordAnswerMismatches((mismatch) => mismatches.push(mismatch));

afterEach(() => {
  const found = mismatches.splice(0);
  expect(found, 'answers that do not match their endpoint declaration (shared/src/api/)').toEqual([]);
});
