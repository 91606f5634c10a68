import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/api';
import {
  $error,
  $fileName,
  $step,
  downloadClosed,
  fetchReportFileFx,
  formatChosen,
  reportDownloadOpened,
  saveFileFx,
} from './model';

const body = { deviceSerials: ['SP240001'], startDate: '2026-03-01T00:00:00-06:00', endDate: '2026-03-08T23:59:59-05:00' };

describe('report download', () => {
  it('chooses a format, loads and saves the file under the spec name', async () => {
    const requested: unknown[] = [];
    const scope = fork({
      handlers: [
        [
          fetchReportFileFx,
          async (params: unknown) => (
            requested.push(params),
            { blob: new Blob(['x']), fileName: '2026_Mar_01-2026_Mar_08.xlsx' }
          ),
        ],
        [saveFileFx, ({ fileName }: { fileName: string }) => fileName],
      ],
    });
    await allSettled(reportDownloadOpened, { scope, params: body });
    expect(scope.getState($step)).toBe('choose');
    await allSettled(formatChosen, { scope, params: 'xlsx' });
    expect(requested).toEqual([{ format: 'xlsx', body }]);
    expect(scope.getState($step)).toBe('done');
    expect(scope.getState($fileName)).toBe('2026_Mar_01-2026_Mar_08.xlsx');
  });

  it('says why it failed, and closing forgets it', async () => {
    const scope = fork({
      handlers: [[fetchReportFileFx, async () => Promise.reject(new HttpError(500, { detail: 'Report builder down' }))]],
    });
    await allSettled(reportDownloadOpened, { scope, params: body });
    await allSettled(formatChosen, { scope, params: 'pdf' });
    expect(scope.getState($step)).toBe('error');
    expect(scope.getState($error)).toBe('Report builder down');
    await allSettled(downloadClosed, { scope });
    expect(scope.getState($step)).toBe('closed');
    expect(scope.getState($error)).toBeNull();
  });

  it('refuses an empty range before calling the server', async () => {
    const scope = fork({ handlers: [[saveFileFx, () => 'never']] });
    await allSettled(reportDownloadOpened, { scope, params: { ...body, startDate: '2026-03-09T00:00:00-05:00' } });
    await allSettled(formatChosen, { scope, params: 'xlsx' });
    expect(scope.getState($step)).toBe('error');
    expect(scope.getState($error)).toBe('The start date must be on or before the end date.');
  });

  it('a second choice while loading starts nothing more', async () => {
    let calls = 0;
    let release: () => void = () => undefined;
    const scope = fork({
      handlers: [
        [
          fetchReportFileFx,
          () => (calls++, new Promise((resolve) => (release = () => resolve({ blob: new Blob(['x']), fileName: 'f.pdf' })))),
        ],
        [saveFileFx, () => 'f.pdf'],
      ],
    });
    await allSettled(reportDownloadOpened, { scope, params: body });
    const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
    const first = allSettled(formatChosen, { scope, params: 'pdf' });
    await tick();
    const second = allSettled(formatChosen, { scope, params: 'pdf' });
    await tick();
    release();
    await Promise.all([first, second]);
    expect(calls).toBe(1);
  });
});
