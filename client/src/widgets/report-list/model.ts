import { combine, createEffect, createEvent, createStore, sample } from 'effector';
import { browserZoneLabel, dayCount, defaultRange, rangeProblem, reportBody, reportEmailsRequested } from '../../entities/report';
import { sessionEnded } from '../../entities/session';
import { reportDownloadOpened } from '../../features/report-download';
import { emailReportOpened } from '../../features/report-email';
import { $currentSerials, TAG_TEXT, tagsRequested } from '../../features/report-tags';

/**
 * The Report List view (spec section 2): the range, the device list (a tag or the Temporary Device List)
 * and the three actions. Download and Send Email do nothing with an empty list (spec section 5); they open
 * their dialogs with the list and the range as the report body.
 */
export const reportListMounted = createEvent();
export const startDateChanged = createEvent<string>();
export const endDateChanged = createEvent<string>();
export const downloadClicked = createEvent();
export const sendEmailClicked = createEvent();

export const nowFx = createEffect(() => new Date());

/** null until the view first opens: the defaults are read from the clock then, not at page load. */
export const $startDate = createStore<string | null>(null)
  .on(startDateChanged, (_, d) => d)
  .reset(sessionEnded);
export const $endDate = createStore<string | null>(null)
  .on(endDateChanged, (_, d) => d)
  .reset(sessionEnded);
export const $range = combine($startDate, $endDate, (startDate, endDate) => ({
  startDate: startDate ?? '',
  endDate: endDate ?? '',
}));
export const $dayCount = $range.map(dayCount);
export const $rangeProblem = $range.map(rangeProblem);
export const $hasDevices = $currentSerials.map((serials) => serials.length > 0);
/** The zone the range's days are in, named on screen (the browser's; set when the view first opens). */
export const $zoneLabel = createStore('').reset(sessionEnded);
/**
 * Why Download and Send Email cannot run, in words shown beside them; null when they can. They are
 * disabled then: a dialog that opens only to refuse (or to ask 'Send email?' and fail) answers nothing.
 */
export const $actionBlocked = combine($hasDevices, $rangeProblem, (hasDevices, problem) =>
  !hasDevices ? `Add devices to the ${TAG_TEXT.temporary} first.` : problem,
);

sample({ clock: reportListMounted, target: [tagsRequested, reportEmailsRequested] });
sample({ clock: reportListMounted, source: $startDate, filter: (start) => start === null, fn: () => undefined, target: nowFx });
sample({ clock: nowFx.doneData, fn: (now) => defaultRange(now).startDate, target: $startDate });
sample({ clock: nowFx.doneData, fn: (now) => defaultRange(now).endDate, target: $endDate });
sample({ clock: nowFx.doneData, fn: (now) => browserZoneLabel(now), target: $zoneLabel });

const body = (serials: string[], range: { startDate: string; endDate: string }) => reportBody(serials, range);
sample({
  clock: downloadClicked,
  source: { serials: $currentSerials, range: $range, blocked: $actionBlocked },
  filter: ({ blocked }) => blocked === null,
  fn: ({ serials, range }) => body(serials, range),
  target: reportDownloadOpened,
});
sample({
  clock: sendEmailClicked,
  source: { serials: $currentSerials, range: $range, blocked: $actionBlocked },
  filter: ({ blocked }) => blocked === null,
  fn: ({ serials, range }) => body(serials, range),
  target: emailReportOpened,
});
