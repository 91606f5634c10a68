import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $devices } from '../../entities/device';
import { HttpError } from '../../shared/api';
import {
  $confirmOpen,
  $counts,
  $crossTagId,
  $currentName,
  $currentSerials,
  $filterOpen,
  $filterPicked,
  $notice,
  $selectedTagId,
  $tagDialogOpen,
  $tagFormError,
  $tagNameError,
  $tags,
  $temporarySerials,
  $unsaved,
  addTagFx,
  advanceFilterApplied,
  advanceFilterOpened,
  editTagFx,
  fetchTagsFx,
  filterAllCleared,
  filterAllSelected,
  filterRowToggled,
  filterSearchChanged,
  newTagCancelled,
  newTagClicked,
  newTagConfirmed,
  removeTagFx,
  tagClicked,
  tagDeleteClicked,
  tagDialogOpened,
  tagLongPressed,
  tagNameChanged,
  tagSaved,
  tagsRequested,
  type ReportTag,
} from './model';

const device = (serial: string, label: string, brand: number | null, location_id: number | null) => ({
  serial,
  label,
  brand,
  location_id,
  address: '',
});
const devices = {
  A: device('A', 'Audubon Park 1', 1, 10),
  B: device('B', 'Audubon Park 2', 1, 10),
  C: device('C', 'City Park', 2, 11),
};
const tag = (id: number, name: string, deviceSerials: string[]): ReportTag => ({
  id,
  name,
  isSavedTag: true,
  deviceSerials,
  devices: deviceSerials.map((serial) => ({ serial, label: serial })),
});
const parks = tag(1, 'Parks', ['A', 'B']);

/** A scope with the three devices and one saved tag; `handlers` replace the calls a test watches. */
function scope(handlers: readonly unknown[] = []) {
  return fork({ values: [[$devices, devices]], handlers: [[fetchTagsFx, async () => [parks]], ...handlers] as never });
}

describe('report tags', () => {
  it('starts on an empty Temporary Device List; Edit picks devices through the Advance Filter', async () => {
    const s = scope();
    await allSettled(tagsRequested, { scope: s });
    expect(s.getState($currentName)).toBe('Temporary Device List');
    expect(s.getState($currentSerials)).toEqual([]);
    await allSettled(advanceFilterOpened, { scope: s });
    expect(s.getState($filterOpen)).toBe(true);
    await allSettled(filterRowToggled, { scope: s, params: 'C' });
    await allSettled(filterSearchChanged, { scope: s, params: 'audubon' });
    await allSettled(filterAllSelected, { scope: s });
    expect(s.getState($filterPicked)).toEqual(['C', 'A', 'B']);
    await allSettled(filterAllCleared, { scope: s });
    expect(s.getState($filterPicked)).toEqual(['C']);
    await allSettled(filterRowToggled, { scope: s, params: 'A' });
    await allSettled(advanceFilterApplied, { scope: s });
    expect(s.getState($filterOpen)).toBe(false);
    expect(s.getState($temporarySerials)).toEqual(['C', 'A']);
    expect(s.getState($counts)).toEqual({ devices: 2, brands: 2, counties: 2 });
    expect(s.getState($unsaved)).toBe(true);
  });

  it('a tag click selects it and its devices, a second click returns to the Temporary Device List', async () => {
    const s = scope();
    await allSettled(tagsRequested, { scope: s });
    await allSettled(advanceFilterOpened, { scope: s });
    await allSettled(filterRowToggled, { scope: s, params: 'C' });
    await allSettled(advanceFilterApplied, { scope: s });
    await allSettled(tagClicked, { scope: s, params: 1 });
    expect(s.getState($currentName)).toBe('Parks');
    expect(s.getState($currentSerials)).toEqual(['A', 'B']);
    await allSettled(tagClicked, { scope: s, params: 1 });
    expect(s.getState($currentName)).toBe('Temporary Device List');
    expect(s.getState($currentSerials)).toEqual(['C']);
  });

  it('saves the Temporary Device List as a tag; a taken name reads "please create new name"', async () => {
    let calls = 0;
    const s = scope([
      [
        addTagFx,
        async (input: { name: string; deviceSerials: string[] }) => {
          calls++;
          if (input.name === 'Parks') throw new HttpError(400, { name: ['please create new name'] });
          return tag(2, input.name, input.deviceSerials);
        },
      ],
    ]);
    await allSettled(tagsRequested, { scope: s });
    await allSettled(tagDialogOpened, { scope: s });
    await allSettled(tagNameChanged, { scope: s, params: 'Parks' });
    await allSettled(tagSaved, { scope: s });
    expect(calls).toBe(0);
    expect(s.getState($tagFormError)).toBe('Add devices with Edit before saving a tag.');
    await allSettled(advanceFilterOpened, { scope: s });
    await allSettled(filterRowToggled, { scope: s, params: 'C' });
    await allSettled(advanceFilterApplied, { scope: s });
    await allSettled(tagNameChanged, { scope: s, params: '  ' });
    await allSettled(tagSaved, { scope: s });
    expect(s.getState($tagNameError)).toBe('Required');
    await allSettled(tagNameChanged, { scope: s, params: 'Parks' });
    await allSettled(tagSaved, { scope: s });
    expect(s.getState($tagNameError)).toBe('please create new name');
    expect(s.getState($tagDialogOpen)).toBe(true);
    await allSettled(tagNameChanged, { scope: s, params: 'City' });
    await allSettled(tagSaved, { scope: s });
    expect(s.getState($tagDialogOpen)).toBe(false);
    expect(s.getState($selectedTagId)).toBe(2);
    expect(s.getState($currentName)).toBe('City');
    expect(s.getState($temporarySerials)).toEqual([]);
    expect(s.getState($tags).map((t) => t.name)).toEqual(['Parks', 'City']);
    expect(s.getState($notice)).toEqual({ tone: 'success', text: 'Tag "City" saved.' });
  });

  it('edits of a saved tag stay a draft until Save sends them', async () => {
    const sent: unknown[] = [];
    const s = scope([
      [
        editTagFx,
        async (input: { id: number; name: string; deviceSerials: string[] }) => (
          sent.push(input),
          tag(input.id, input.name, input.deviceSerials)
        ),
      ],
    ]);
    await allSettled(tagsRequested, { scope: s });
    await allSettled(tagClicked, { scope: s, params: 1 });
    await allSettled(advanceFilterOpened, { scope: s });
    await allSettled(filterRowToggled, { scope: s, params: 'C' });
    await allSettled(advanceFilterApplied, { scope: s });
    expect(s.getState($currentSerials)).toEqual(['A', 'B', 'C']);
    expect(s.getState($tags)[0]!.deviceSerials).toEqual(['A', 'B']);
    expect(s.getState($unsaved)).toBe(true);
    await allSettled(tagDialogOpened, { scope: s });
    await allSettled(tagSaved, { scope: s });
    expect(sent).toEqual([{ id: 1, name: 'Parks', deviceSerials: ['A', 'B', 'C'] }]);
    expect(s.getState($tags)[0]!.deviceSerials).toEqual(['A', 'B', 'C']);
    expect(s.getState($unsaved)).toBe(false);
  });

  it('New Tag asks first when devices would be lost; No keeps them, Yes starts an empty list', async () => {
    const s = scope();
    await allSettled(tagsRequested, { scope: s });
    await allSettled(tagDialogOpened, { scope: s });
    await allSettled(newTagClicked, { scope: s });
    expect(s.getState($confirmOpen)).toBe(false);
    await allSettled(advanceFilterOpened, { scope: s });
    await allSettled(filterRowToggled, { scope: s, params: 'A' });
    await allSettled(advanceFilterApplied, { scope: s });
    await allSettled(tagDialogOpened, { scope: s });
    await allSettled(newTagClicked, { scope: s });
    expect(s.getState($confirmOpen)).toBe(true);
    await allSettled(newTagCancelled, { scope: s });
    expect(s.getState($confirmOpen)).toBe(false);
    expect(s.getState($currentSerials)).toEqual(['A']);
    await allSettled(newTagClicked, { scope: s });
    await allSettled(newTagConfirmed, { scope: s });
    expect(s.getState($currentSerials)).toEqual([]);
    expect(s.getState($tagDialogOpen)).toBe(false);
  });

  it('a long press shows the cross; deleting the selected tag returns to the Temporary Device List', async () => {
    const s = scope([[removeTagFx, async (id: number) => id]]);
    await allSettled(tagsRequested, { scope: s });
    await allSettled(tagLongPressed, { scope: s, params: 1 });
    expect(s.getState($crossTagId)).toBe(1);
    await allSettled(tagClicked, { scope: s, params: 1 });
    await allSettled(tagDeleteClicked, { scope: s, params: 1 });
    expect(s.getState($tags)).toEqual([]);
    expect(s.getState($selectedTagId)).toBeNull();
    expect(s.getState($currentName)).toBe('Temporary Device List');
    expect(s.getState($notice)).toEqual({ tone: 'success', text: 'Tag deleted.' });
  });
});
