import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $reportEmails, fetchReportEmailsFx, reportEmailsRequested } from '../../entities/report';
import { HttpError } from '../../shared/api';
import {
  $error,
  $requestId,
  $step,
  emailDialogClosed,
  emailReportOpened,
  newRequestIdFx,
  sendConfirmed,
  sendReportFx,
  sentTimerFx,
} from './model';

const body = { deviceSerials: ['SP240001'], startDate: '2026-03-01T00:00:00-06:00', endDate: '2026-03-08T23:59:59-05:00' };
const emails = [
  { id: 1, name: 'Ops', email: 'ops@x.test', is_enable: true },
  { id: 2, name: 'Off', email: 'off@x.test', is_enable: false },
];
let ids = 0;
const answer = (input: { requestId: string }) => ({ detail: 'queued', jobId: 'j', requestId: input.requestId, jobs: [] });

describe('email report', () => {
  it('says Email List Empty ! and sends nothing when no address is enabled', async () => {
    const sent: unknown[] = [];
    const s = fork({
      values: [[$reportEmails, [emails[1]]]],
      handlers: [[sendReportFx, async (i: unknown) => sent.push(i)]] as never,
    });
    await allSettled(emailReportOpened, { scope: s, params: body });
    expect(s.getState($step)).toBe('empty');
    await allSettled(sendConfirmed, { scope: s });
    expect(sent).toEqual([]);
  });

  it('asks, sends the enabled addresses with one request id, says it was sent and closes after the timer', async () => {
    const sent: { emails: string[]; requestId: string }[] = [];
    const s = fork({
      values: [[$reportEmails, emails]],
      handlers: [
        [newRequestIdFx, () => `req-${++ids}`],
        [sendReportFx, async (input: { emails: string[]; requestId: string }) => (sent.push(input), answer(input))],
        [sentTimerFx, async (seq: number) => seq],
      ] as never,
    });
    await allSettled(emailReportOpened, { scope: s, params: body });
    expect(s.getState($step)).toBe('confirm');
    const id = s.getState($requestId);
    await allSettled(sendConfirmed, { scope: s });
    expect(sent).toEqual([{ ...body, emails: ['ops@x.test'], requestId: id }]);
    // The 1 s timer ran out (instantly here): closed.
    expect(s.getState($step)).toBe('closed');
  });

  it('a failure says Email Failed to Sent ! and Try again resends the same request id', async () => {
    const sent: string[] = [];
    let fail = true;
    const s = fork({
      values: [[$reportEmails, emails]],
      handlers: [
        [newRequestIdFx, () => `req-${++ids}`],
        [
          sendReportFx,
          async (input: { requestId: string }) => (
            sent.push(input.requestId),
            fail ? Promise.reject(new HttpError(500, { detail: 'Mail queue down' })) : answer(input)
          ),
        ],
        // A timer for an older popup: it closes nothing.
        [sentTimerFx, async () => -1],
      ] as never,
    });
    await allSettled(emailReportOpened, { scope: s, params: body });
    await allSettled(sendConfirmed, { scope: s });
    expect(s.getState($step)).toBe('error');
    expect(s.getState($error)).toBe('Mail queue down');
    fail = false;
    await allSettled(sendConfirmed, { scope: s });
    expect(s.getState($step)).toBe('sent');
    expect(new Set(sent).size).toBe(1);
    // Yes again once sent starts nothing.
    await allSettled(sendConfirmed, { scope: s });
    expect(sent).toHaveLength(2);
    await allSettled(emailDialogClosed, { scope: s });
    // A new question is a new request.
    await allSettled(emailReportOpened, { scope: s, params: body });
    expect(s.getState($requestId)).not.toBe(sent[0]);
  });

  it('the server answering the list empty shows Email List Empty !', async () => {
    const s = fork({
      values: [[$reportEmails, emails]],
      handlers: [[sendReportFx, async () => Promise.reject(new HttpError(400, { emails: ['Email List Empty !'] }))]] as never,
    });
    await allSettled(emailReportOpened, { scope: s, params: body });
    await allSettled(sendConfirmed, { scope: s });
    expect(s.getState($step)).toBe('empty');
  });

  it('opened while the list is being read again, waits for the answer and asks with the new list', async () => {
    const sent: { emails: string[] }[] = [];
    let answerList: (list: typeof emails) => void = () => undefined;
    const s = fork({
      // The last read said the list was empty; the Report List has just asked for it again.
      values: [[$reportEmails, []]],
      handlers: [
        [fetchReportEmailsFx, () => new Promise((resolve) => (answerList = resolve))],
        [newRequestIdFx, () => `req-${++ids}`],
        [sendReportFx, async (input: { emails: string[]; requestId: string }) => (sent.push(input), answer(input))],
        [sentTimerFx, async (seq: number) => seq],
      ] as never,
    });
    // allSettled waits for the running read too, so these are let go and the scope looked at after a tick.
    const tick = () => new Promise((r) => setTimeout(r, 0));
    const read = allSettled(reportEmailsRequested, { scope: s });
    void allSettled(emailReportOpened, { scope: s, params: body });
    await tick();
    // Not 'Email List Empty !' for the old list: it waits, and Yes is not offered yet.
    expect(s.getState($step)).toBe('reading');
    void allSettled(sendConfirmed, { scope: s });
    await tick();
    expect(sent).toEqual([]);
    answerList(emails);
    await read;
    expect(s.getState($step)).toBe('confirm');
    await allSettled(sendConfirmed, { scope: s });
    expect(sent.map((i) => i.emails)).toEqual([['ops@x.test']]);
  });
});
