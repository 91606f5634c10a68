import { describe, expect, it } from 'vitest';
import { mlToFlOz } from '../rules/volume.ts';
import {
  addReportTagSchema,
  contentDisposition,
  deleteReportEmailSchema,
  editReportTagSchema,
  emailReportSchema,
  REPORT_MESSAGES,
  reportDateLabel,
  reportDateOfInput,
  reportFileName,
  reportRequestSchema,
} from './report.schema.ts';

describe('report file names (spec section 7: <start>-<end>.xlsx, dates YYYY/MMM/DD)', () => {
  it('labels days and names files as the spec writes them', () => {
    expect(reportDateLabel('2026-11-01')).toBe('2026/Nov/01');
    expect(reportDateLabel('2026-01-31')).toBe('2026/Jan/31');
    expect(reportFileName('2026-11-01', '2026-11-21', 'xlsx')).toBe('2026/Nov/01-2026/Nov/21.xlsx');
    expect(reportFileName('2026-12-31', '2027-01-01', 'pdf')).toBe('2026/Dec/31-2027/Jan/01.pdf');
  });

  it('sends the exact name in RFC 5987 filename* and a file-system-safe fallback', () => {
    expect(contentDisposition('2026/Nov/01-2026/Nov/21.xlsx')).toBe(
      `attachment; filename="2026_Nov_01-2026_Nov_21.xlsx"; filename*=UTF-8''2026%2FNov%2F01-2026%2FNov%2F21.xlsx`,
    );
    expect(contentDisposition("it's (1).pdf")).toBe(`attachment; filename="it_s__1_.pdf"; filename*=UTF-8''it%27s%20%281%29.pdf`);
  });

  it('reads the calendar day written in a date input, whatever its offset', () => {
    expect(reportDateOfInput('2026-11-21T23:59:59-06:00')).toBe('2026-11-21');
    expect(reportDateOfInput('2026-11-01')).toBe('2026-11-01');
    expect(reportDateOfInput('2026-11-01T00:00:00.000Z')).toBe('2026-11-01');
  });
});

describe('report payloads', () => {
  it("accepts the spec's tag plus name in every form the client may send", () => {
    const expected = { name: 'Parks', deviceSerials: ['SP1', 'SP2'] };
    expect(addReportTagSchema.parse({ name: 'Parks', deviceSerials: ['SP1', 'SP2', 'SP1'] })).toEqual(expected);
    expect(
      addReportTagSchema.parse({ name: 'Parks', tag: { name: 'Temporary Device List', deviceSerials: ['SP1', 'SP2'] } }),
    ).toEqual(expected);
    expect(addReportTagSchema.parse({ name: 'Parks', tag: { devices: [{ serial: 'SP1' }, { serial: 'SP2' }] } })).toEqual(
      expected,
    );
    expect(addReportTagSchema.parse({ name: 'Parks', tag: ['SP1', { serial: 'SP2' }] })).toEqual(expected);
    expect(addReportTagSchema.safeParse({ name: 'Parks', tag: ['SP1'], deviceSerials: ['SP1'] }).success).toBe(false);
    expect(addReportTagSchema.safeParse({ name: '', deviceSerials: ['SP1'] }).success).toBe(false);
    expect(editReportTagSchema.parse({ name: 'New' })).toEqual({ name: 'New' });
    expect(editReportTagSchema.safeParse({}).success).toBe(false);
  });

  it('checks report ranges and the email list', () => {
    const base = { deviceSerials: ['SP1'], startDate: '2026-03-01T00:00:00-06:00', endDate: '2026-03-08T23:59:59-05:00' };
    expect(reportRequestSchema.safeParse(base).success).toBe(true);
    const reversed = reportRequestSchema.safeParse({ ...base, startDate: '2026-03-09' });
    expect(reversed.error?.issues[0]).toMatchObject({ path: ['startDate'], message: REPORT_MESSAGES.startAfterEnd });
    expect(reportRequestSchema.safeParse({ ...base, startDate: '2026-02-30' }).success).toBe(false);
    expect(reportRequestSchema.safeParse({ ...base, startDate: '2019-01-01' }).success).toBe(false);
    const empty = emailReportSchema.safeParse({ ...base, emails: [] });
    expect(empty.error?.issues[0]).toMatchObject({ path: ['emails'], message: REPORT_MESSAGES.emailListEmpty });
    expect(emailReportSchema.parse({ ...base, emails: ['A@x.test', 'a@x.test'] }).emails).toEqual(['a@x.test']);
  });

  it('deletes with { isEnable: false } or no body, never { isEnable: true }', () => {
    expect(deleteReportEmailSchema.safeParse({ isEnable: false }).success).toBe(true);
    expect(deleteReportEmailSchema.safeParse(undefined).success).toBe(true);
    expect(deleteReportEmailSchema.safeParse({ isEnable: true }).success).toBe(false);
  });

  it('converts dispensed ml to fl.oz. with the volume divisor and 0.0295735', () => {
    expect(mlToFlOz(29.5735)).toBeCloseTo(1, 9);
    expect(mlToFlOz(1000)).toBeCloseTo(33.814, 3);
  });
});
