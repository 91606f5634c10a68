import {
  clearAllPicks,
  formatNumber,
  isPicked,
  type ListCounts,
  localPicks,
  picksOf,
  reportsApi,
  selectAllPicks,
  selectionOfPicks as selectionOf,
  togglePick,
  type Picks,
  type SelectionStepInput as PickStep,
  searchKey,
  SELECTION_LIMITS,
  selectionsApi,
  TEMPORARY_TAG_NAME,
  type ReportTagAnswer,
} from '@fleet/shared';
import { attach, combine, createEvent, createStore, sample } from 'effector';
import { createDevicePageList, createPicksCount, type PicksSelection } from '../../entities/device';
import { sessionEnded } from '../../entities/session';
import { call, createApiFx, failureMessage, fieldMessages } from '../../shared/api';
import { sameSerials } from './lib/tags-lib';

/**
 * The device list a report is made of (spec section 2 'Report List view' and popups): the unsaved
 * 'Temporary Device List' or a saved tag. Edit opens the Advance Filter over the caller's devices; Tag
 * opens the Tag name dialog, whose Save stores the list as a tag (or the selected tag's new name and
 * devices) and whose New Tag starts an empty list, asking first when the current one has unsaved devices.
 * A tag click selects it and its devices; a second click returns to the Temporary Device List, which is
 * kept meanwhile. Edits of a saved tag stay a draft until Save.
 */
export type ReportTag = ReportTagAnswer;
export type TagNotice = { tone: 'success' | 'danger'; text: string } | null;

export const TAG_TEXT = {
  temporary: TEMPORARY_TAG_NAME,
  confirmNew: 'Open New Tag Without Save Current Report List?',
  nameRequired: 'Required',
  needDevices: 'Add devices with Edit before saving a tag.',
  tooMany: (total: number) =>
    `This selection holds ${formatNumber(total)} devices; a report list holds at most ${formatNumber(SELECTION_LIMITS.answer)}. Narrow the search.`,
} as const;

export const tagsRequested = createEvent();
export const tagClicked = createEvent<number>();
/** A touch held for 1 s on a tag: its delete cross shows. */
export const tagLongPressed = createEvent<number>();
export const tagDeleteClicked = createEvent<number>();

export const advanceFilterOpened = createEvent();
export const advanceFilterClosed = createEvent();
export const advanceFilterApplied = createEvent();
/** The picked serials are known (at once, or once the server answered): the list becomes them and the dialog closes. */
const filterApplyDone = createEvent<string[]>();
export const filterSearchChanged = createEvent<string>();
export const filterRowToggled = createEvent<string>();
export const filterAllSelected = createEvent();
export const filterAllCleared = createEvent();

export const tagDialogOpened = createEvent();
export const tagDialogClosed = createEvent();
export const tagNameChanged = createEvent<string>();
export const tagSaved = createEvent();
export const newTagClicked = createEvent();
export const newTagConfirmed = createEvent();
export const newTagCancelled = createEvent();
export const noticeDismissed = createEvent();

export const fetchTagsFx = createApiFx(() => call(reportsApi.reportTags));
export const addTagFx = createApiFx((input: { name: string; deviceSerials: string[] }) =>
  call(reportsApi.addReportTag, { body: input }),
);
export const editTagFx = createApiFx(({ id, ...input }: { id: number; name: string; deviceSerials: string[] }) =>
  call(reportsApi.editReportTag, { params: { id }, body: input }),
);
export const removeTagFx = createApiFx(async (id: number) => {
  await call(reportsApi.removeReportTag, { params: { id } });
  return id;
});

const newListStarted = createEvent();

export const $tags = createStore<ReportTag[]>([]);
export const $tagsStatus = createStore<'idle' | 'loading' | 'ready' | 'failed'>('idle');
export const $temporarySerials = createStore<string[]>([]);
export const $selectedTagId = createStore<number | null>(null);
/** Devices picked for the selected saved tag and not saved yet (null: none). */
export const $draftSerials = createStore<string[] | null>(null);
export const $crossTagId = createStore<number | null>(null);
export const $notice = createStore<TagNotice>(null);

export const $selectedTag = combine($tags, $selectedTagId, (tags, id) => tags.find((t) => t.id === id) ?? null);
export const $currentSerials = combine($selectedTag, $draftSerials, $temporarySerials, (tag, draft, temporary) =>
  tag ? (draft ?? tag.deviceSerials) : temporary,
);
export const $currentName = $selectedTag.map((tag) => tag?.name ?? TAG_TEXT.temporary);
/**
 * The list's counts (spec section 2: Devices, Brands, Counties) are the server's for its serials
 * (POST /api/v1/deviceSelection with counts: the shared listCounts rule over the devices in the caller's
 * scope), asked each time the list changes (issue 46: the browser never reads the fleet for them). Only the
 * answer for the serials now on the list counts: an older one arriving late never replaces it. Null while asked.
 */
export const listCountsFx = createApiFx(async (serials: string[]) => {
  const answer = await call(selectionsApi.resolve, { body: { selection: { serials }, limit: 0, counts: true } });
  return { devices: answer.total, brands: answer.brands ?? 0, counties: answer.counties ?? 0 };
});
/** The same serials, whatever the order: one key. */
const serialsKey = (serials: readonly string[]) => [...serials].sort().join('\n');
const $countedList = createStore<{ key: string; counts: ListCounts } | null>(null, { serialize: 'ignore' }).reset(sessionEnded);
export const $counts = combine($currentSerials, $countedList, (serials, counted): ListCounts | null =>
  serials.length === 0 ? { devices: 0, brands: 0, counties: 0 } : counted?.key === serialsKey(serials) ? counted.counts : null,
);
/** Devices on a list that would be lost by starting a new one. */
export const $unsaved = combine(
  $selectedTag,
  $draftSerials,
  $temporarySerials,
  (tag, draft, temporary) => temporary.length > 0 || (tag !== null && draft !== null && !sameSerials(draft, tag.deviceSerials)),
);

// ---------------------------------------------------------------- tags list

$tags
  .on(fetchTagsFx.doneData, (_, tags) => tags)
  .on(addTagFx.doneData, (tags, tag) => [...tags.filter((t) => t.id !== tag.id), tag])
  .on(editTagFx.doneData, (tags, tag) => tags.map((t) => (t.id === tag.id ? tag : t)))
  .on(removeTagFx.doneData, (tags, id) => tags.filter((t) => t.id !== id))
  .reset(sessionEnded);
$tagsStatus
  .on(fetchTagsFx, (status) => (status === 'ready' ? status : 'loading'))
  .on(fetchTagsFx.done, () => 'ready')
  .on(fetchTagsFx.fail, () => 'failed')
  .reset(sessionEnded);
sample({ clock: tagsRequested, fn: () => undefined, target: fetchTagsFx });

$selectedTagId
  .on(tagClicked, (current, id) => (current === id ? null : id))
  .on(addTagFx.doneData, (_, tag) => tag.id)
  .on(removeTagFx.doneData, (current, id) => (current === id ? null : current))
  .reset(newListStarted, sessionEnded);
// A tag chosen or left drops the draft of the last one.
$draftSerials.reset(tagClicked, addTagFx.done, editTagFx.done, removeTagFx.done, newListStarted, sessionEnded);
$crossTagId.on(tagLongPressed, (_, id) => id).reset(tagClicked, removeTagFx.done, sessionEnded);
// The Temporary Device List became a tag: it starts empty again.
$temporarySerials.reset(addTagFx.done, newListStarted, sessionEnded);

sample({ clock: tagDeleteClicked, filter: removeTagFx.pending.map((p) => !p), target: removeTagFx });

// ---------------------------------------------------------------- Advance Filter

export const $filterOpen = createStore(false)
  .on(advanceFilterOpened, () => true)
  .reset(advanceFilterClosed, filterApplyDone, sessionEnded);
export const $filterSearch = createStore('')
  .on(filterSearchChanged, (_, s) => s)
  .reset(advanceFilterOpened, sessionEnded);
/**
 * The picks, as a selection the server resolves (issue 46; lib/tags-lib.ts Picks): Select All of a search is
 * one step naming the search, whatever the number of devices it matches, and the count shown is the
 * server's (POST /api/v1/deviceSelection). Only Apply asks for the serials (a report list holds at most
 * SELECTION_LIMITS.answer); the browser never lists the fleet for them.
 */
export const $filterPicks = createStore<Picks>(picksOf([])).reset(sessionEnded);
/** Whether a row shown is picked. */
export const $isPicked = $filterPicks.map((picks) => (row: { serial: string; label?: string | null }) => isPicked(picks, row));
/** The caller's devices narrowed by the search, read from the server a page at a time (issue 46); none while closed. */
export const filterPages = createDevicePageList();
export const $filterRows = filterPages.$items;
export const $filterTotal = filterPages.$total;

/** How many devices the picks hold in the caller's scope (limit 0: the count alone), or their serials on Apply. */
export const resolvePicksFx = createApiFx((input: { selection: { steps: PickStep[] }; limit: number }) =>
  call(selectionsApi.resolve, { body: input }),
);
const countFx = attach({ effect: resolvePicksFx, mapParams: (selection: PicksSelection) => ({ selection, limit: 0 }) });
const serialsFx = attach({
  effect: resolvePicksFx,
  mapParams: (selection: { steps: PickStep[] }) => ({ selection, limit: SELECTION_LIMITS.answer }),
});
/**
 * Select All and nothing since, for the search whose rows are shown: the list's own total is the count (the server's
 * `total` of that filter), with no call of its own.
 */
const $wholeFilterTotal = combine($filterPicks, filterPages.$filter, $filterTotal, (picks, shown, total) => {
  const [step, ...rest] = picks.steps;
  const whole =
    rest.length === 0 &&
    Object.keys(picks.toggled).length === 0 &&
    step?.op === 'select' &&
    shown !== null &&
    (step.filter.q ?? '') === (shown.q ?? '');
  return whole ? total : null;
});
/** The picked count: the browser's when it knows the serials, else the server's for these picks (null: asking). */
const $countedPicks = createPicksCount({
  picks: $filterPicks,
  countFx,
  when: combine($filterOpen, $wholeFilterTotal, (open, wholeTotal) => open && wholeTotal === null),
  reset: [advanceFilterOpened, sessionEnded],
});
export const $filterPickedCount = combine($filterPicks, $countedPicks, $wholeFilterTotal, (picks, counted, wholeTotal) =>
  localPicks(picks) === null && wholeTotal !== null ? wholeTotal : counted,
);
export const $filterError = createStore<string | null>(null).reset(
  advanceFilterOpened,
  advanceFilterClosed,
  filterAllSelected,
  filterAllCleared,
  filterRowToggled,
  sessionEnded,
);
export const $filterApplying = serialsFx.pending;

/** The search as a filter: devicePage's `q` (shared searchKey), none when blank. */
const searchFilter = (search: string): { q?: string } => (searchKey(search) ? { q: searchKey(search) } : {});
sample({ clock: advanceFilterOpened, fn: () => ({}), target: filterPages.opened });
sample({ clock: filterSearchChanged, fn: searchFilter, target: filterPages.filterTyped });
sample({ clock: [advanceFilterClosed, filterApplyDone, sessionEnded], target: filterPages.closed });

sample({ clock: advanceFilterOpened, source: $currentSerials, fn: picksOf, target: $filterPicks });
sample({
  clock: filterRowToggled,
  source: { picks: $filterPicks, rows: $filterRows },
  fn: ({ picks, rows }, serial) => togglePick(picks, rows.find((r) => r.serial === serial) ?? { serial }),
  target: $filterPicks,
});
sample({
  clock: filterAllSelected,
  source: { picks: $filterPicks, search: $filterSearch },
  fn: ({ picks, search }) => selectAllPicks(picks, searchFilter(search)),
  target: $filterPicks,
});
sample({
  clock: filterAllCleared,
  source: { picks: $filterPicks, search: $filterSearch },
  fn: ({ picks, search }) => clearAllPicks(picks, searchFilter(search)),
  target: $filterPicks,
});

// Apply: the serials the browser knows, or the server's for a search step (at most a report list's devices).
const applyAttempt = sample({ clock: advanceFilterApplied, source: $filterPicks, filter: serialsFx.pending.map((p) => !p) });
sample({
  clock: applyAttempt,
  filter: (picks) => localPicks(picks) !== null,
  fn: (picks) => localPicks(picks)!,
  target: filterApplyDone,
});
sample({ clock: applyAttempt, filter: (picks) => localPicks(picks) === null, fn: selectionOf, target: serialsFx });
sample({
  clock: serialsFx.doneData,
  filter: ({ total }) => total <= SELECTION_LIMITS.answer,
  fn: ({ serials }) => serials,
  target: filterApplyDone,
});
sample({
  clock: serialsFx.doneData,
  filter: ({ total }) => total > SELECTION_LIMITS.answer,
  fn: ({ total }) => TAG_TEXT.tooMany(total),
  target: $filterError,
});
sample({
  clock: serialsFx.failData,
  fn: (error) => `The selection could not be read: ${failureMessage(error)}`,
  target: $filterError,
});

const applied = sample({
  clock: filterApplyDone,
  source: $selectedTag,
  fn: (tag, picked) => ({ picked, tag }),
});
sample({ clock: applied, filter: ({ tag }) => tag === null, fn: ({ picked }) => picked, target: $temporarySerials });
sample({
  clock: applied,
  filter: ({ tag }) => tag !== null,
  fn: ({ picked, tag }) => (sameSerials(picked, tag!.deviceSerials) ? null : picked),
  target: $draftSerials,
});

// ---------------------------------------------------------------- Tag name dialog

export const $tagDialogOpen = createStore(false)
  .on(tagDialogOpened, () => true)
  .reset(tagDialogClosed, addTagFx.done, editTagFx.done, newListStarted, sessionEnded);
export const $tagName = createStore('')
  .on(tagNameChanged, (_, name) => name)
  .reset(sessionEnded);
export const $tagNameError = createStore<string | null>(null).reset(
  tagDialogOpened,
  tagNameChanged,
  tagDialogClosed,
  sessionEnded,
);
export const $tagFormError = createStore<string | null>(null).reset(
  tagDialogOpened,
  tagNameChanged,
  tagDialogClosed,
  sessionEnded,
);
export const $confirmOpen = createStore(false).reset(newTagCancelled, newTagConfirmed, newListStarted, sessionEnded);
export const $tagSaving = combine(addTagFx.pending, editTagFx.pending, (a, e) => a || e);

// The dialog opens on the selected tag's name; an unsaved list has none yet.
sample({ clock: tagDialogOpened, source: $selectedTag, fn: (tag) => tag?.name ?? '', target: $tagName });

const saveAttempt = sample({
  clock: tagSaved,
  source: { name: $tagName, serials: $currentSerials, tag: $selectedTag, saving: $tagSaving },
  filter: ({ saving }) => !saving,
  fn: ({ name, serials, tag }) => ({ name: name.trim(), serials, tag }),
});
sample({ clock: saveAttempt, filter: ({ name }) => name === '', fn: () => TAG_TEXT.nameRequired, target: $tagNameError });
sample({
  clock: saveAttempt,
  filter: ({ name, serials }) => name !== '' && serials.length === 0,
  fn: () => TAG_TEXT.needDevices,
  target: $tagFormError,
});
const valid = sample({ clock: saveAttempt, filter: ({ name, serials }) => name !== '' && serials.length > 0 });
sample({
  clock: valid,
  filter: ({ tag }) => tag === null,
  fn: ({ name, serials }) => ({ name, deviceSerials: serials }),
  target: addTagFx,
});
sample({
  clock: valid,
  filter: ({ tag }) => tag !== null,
  fn: ({ name, serials, tag }) => ({ id: tag!.id, name, deviceSerials: serials }),
  target: editTagFx,
});

// 'please create new name' (and any other name message) under the field; anything else under the form.
const saveFailed = sample({ clock: [addTagFx.failData, editTagFx.failData] });
sample({
  clock: saveFailed,
  filter: (error) => fieldMessages(error).name !== undefined,
  fn: (error) => fieldMessages(error).name!,
  target: $tagNameError,
});
sample({
  clock: saveFailed,
  filter: (error) => fieldMessages(error).name === undefined,
  fn: (error) => failureMessage(error),
  target: $tagFormError,
});

// New Tag: straight away when nothing would be lost, else ask first (Enter confirms, Escape closes).
sample({ clock: newTagClicked, source: $unsaved, filter: (unsaved) => !unsaved, fn: () => undefined, target: newListStarted });
sample({ clock: newTagClicked, source: $unsaved, filter: Boolean, fn: () => true, target: $confirmOpen });
sample({ clock: newTagConfirmed, target: newListStarted });

// ---------------------------------------------------------------- notices (every action answered)

$notice
  .on(addTagFx.doneData, (_, tag) => ({ tone: 'success', text: `Tag "${tag.name}" saved.` }))
  .on(editTagFx.doneData, (_, tag) => ({ tone: 'success', text: `Tag "${tag.name}" saved.` }))
  .on(removeTagFx.done, () => ({ tone: 'success', text: 'Tag deleted.' }))
  .on(removeTagFx.failData, (_, error) => ({ tone: 'danger', text: `The tag could not be deleted: ${failureMessage(error)}` }))
  .on(fetchTagsFx.failData, (_, error) => ({ tone: 'danger', text: `The tags could not be loaded: ${failureMessage(error)}` }))
  .on(newListStarted, () => ({ tone: 'success', text: `New ${TAG_TEXT.temporary} started.` }))
  .reset(noticeDismissed, tagClicked, advanceFilterOpened, sessionEnded);

// ---------------------------------------------------------------- the list's counts

// Asked when the list becomes other serials, and again when the view opens (devices may have moved since).
sample({
  clock: $currentSerials,
  source: $countedList,
  filter: (counted, serials) => serials.length > 0 && counted?.key !== serialsKey(serials),
  fn: (_, serials) => serials,
  target: listCountsFx,
});
sample({ clock: tagsRequested, source: $currentSerials, filter: (serials) => serials.length > 0, target: listCountsFx });
sample({
  clock: listCountsFx.done,
  source: $currentSerials,
  filter: (serials, { params }) => serialsKey(serials) === serialsKey(params),
  fn: (_, { params, result }) => ({ key: serialsKey(params), counts: result }),
  target: $countedList,
});
