import { TEMPORARY_TAG_NAME, type ReportTagAnswer, reportsApi } from '@fleet/shared';
import { combine, createEvent, createStore, sample } from 'effector';
import { $devices, deviceListNeeded, type Device } from '../../entities/device';
import { sessionEnded } from '../../entities/session';
import { call, createApiFx, failureMessage, fieldMessages } from '../../shared/api';
import { clearAll, listCounts, matchesSearch, sameSerials, selectAll, toggleSerial } from './lib/tags-lib';

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
} as const;

export const tagsRequested = createEvent();
export const tagClicked = createEvent<number>();
/** A touch held for 1 s on a tag: its delete cross shows. */
export const tagLongPressed = createEvent<number>();
export const tagDeleteClicked = createEvent<number>();

export const advanceFilterOpened = createEvent();
export const advanceFilterClosed = createEvent();
export const advanceFilterApplied = createEvent();
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
export const $counts = combine($currentSerials, $devices, (serials, devices) => listCounts(serials, devices));
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
  .reset(advanceFilterClosed, advanceFilterApplied, sessionEnded);
export const $filterSearch = createStore('')
  .on(filterSearchChanged, (_, s) => s)
  .reset(advanceFilterOpened, sessionEnded);
export const $filterPicked = createStore<string[]>([]).reset(sessionEnded);
/** The caller's devices, in the API's order, narrowed by the search; none while closed (pushes cost nothing then). */
export const $filterRows = combine($devices, $filterSearch, $filterOpen, (devices, search, open): Device[] =>
  open ? Object.values(devices).filter((d) => matchesSearch(d, search)) : [],
);

sample({ clock: advanceFilterOpened, source: $currentSerials, target: $filterPicked });
$filterPicked.on(filterRowToggled, toggleSerial);
sample({
  clock: filterAllSelected,
  source: { picked: $filterPicked, rows: $filterRows },
  fn: ({ picked, rows }) =>
    selectAll(
      picked,
      rows.map((d) => d.serial),
    ),
  target: $filterPicked,
});
sample({
  clock: filterAllCleared,
  source: { picked: $filterPicked, rows: $filterRows },
  fn: ({ picked, rows }) =>
    clearAll(
      picked,
      rows.map((d) => d.serial),
    ),
  target: $filterPicked,
});

const applied = sample({
  clock: advanceFilterApplied,
  source: { picked: $filterPicked, tag: $selectedTag },
  fn: ({ picked, tag }) => ({ picked, tag }),
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
// The full device answers are read only once a view shows them (the map draws from the compact pin feed).
sample({ clock: [advanceFilterOpened, tagDialogOpened], fn: () => undefined, target: deviceListNeeded });
