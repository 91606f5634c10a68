import { isPicked as pickedBy, listCounts, type SelectionStepInput } from '@fleet/shared';
import { allSettled, fork, type EventCallable } from 'effector';
import { describe, expect, it } from 'vitest';
import { $devicePins, fetchDevicesFx } from '../../entities/device';
import { HttpError } from '../../shared/api';
import {
  $confirmOpen,
  $counts,
  $crossTagId,
  $currentName,
  $currentSerials,
  $filterError,
  $filterOpen,
  $filterPickedCount,
  $filterRows,
  $filterTotal,
  $isPicked,
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
  listCountsFx,
  filterAllSelected,
  filterPages,
  filterRowToggled,
  filterSearchChanged,
  newTagCancelled,
  newTagClicked,
  newTagConfirmed,
  removeTagFx,
  resolvePicksFx,
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

type Resolve = { selection: { steps: SelectionStepInput[] }; limit: number };
/** The server's POST /api/v1/deviceSelection over the three devices (its rules are tests/integration/device-selection's). */
const resolved: Resolve[] = [];
async function fakeResolve(input: Resolve) {
  resolved.push(input);
  const serials = Object.values(devices)
    .filter((d) => pickedBy({ steps: input.selection.steps, toggled: {} }, d))
    .map((d) => d.serial)
    .sort();
  return { total: serials.length, serials: serials.slice(0, input.limit) };
}

/** The lists the server counted (POST /api/v1/deviceSelection with counts), and the whole device lists read (none). */
const counted: string[][] = [];
let wholeLists = 0;
/** The server's counts of a list: its devices (of the three) by the shared rule. */
async function fakeCounts(serials: string[]) {
  counted.push(serials);
  const known = serials.flatMap((serial) => (serial in devices ? [devices[serial as keyof typeof devices]] : []));
  return listCounts(known.map((d) => ({ brand: d.brand, county: d.location_id })));
}

/** A scope with the three devices and one saved tag; `handlers` replace the calls a test watches. */
function scope(handlers: readonly unknown[] = []) {
  const all = Object.values(devices);
  resolved.length = 0;
  counted.length = 0;
  wholeLists = 0;
  return fork({
    values: [[$devicePins, new Map(all.map((d) => [d.serial, { serial: d.serial, label: d.label } as never]))]],
    handlers: [
      [fetchTagsFx, async () => [parks]],
      // The server's page: the search as GET /api/v1/devicePage applies it.
      [
        filterPages.fetchPageFx,
        async ({ filter }: { filter: { q?: string } }) => {
          const items = all.filter((d) => !filter.q || d.label.replace(/\s+/g, '').toLowerCase().includes(filter.q));
          return { items, nextCursor: null, total: items.length };
        },
      ],
      [filterPages.settleFx, async () => undefined],
      [resolvePicksFx, fakeResolve],
      [listCountsFx, fakeCounts],
      [fetchDevicesFx, async () => (wholeLists++, [])],
      ...handlers,
    ] as never,
  });
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
    expect(s.getState($filterTotal)).toBe(3);
    await allSettled(filterSearchChanged, { scope: s, params: 'audubon' });
    expect(s.getState($filterRows).map((d) => d.serial)).toEqual(['A', 'B']);
    expect(s.getState($filterPickedCount)).toBe(1);
    await allSettled(filterAllSelected, { scope: s });
    // Select All is one step naming the search; the count is the server's.
    expect(resolved.at(-1)).toEqual({
      selection: {
        steps: [
          { op: 'add', serials: ['C'] },
          { op: 'select', filter: { q: 'audubon' } },
        ],
      },
      limit: 0,
    });
    expect(s.getState($filterPickedCount)).toBe(3);
    expect(s.getState($filterRows).map((d) => s.getState($isPicked)(d))).toEqual([true, true]);
    await allSettled(filterAllCleared, { scope: s });
    expect(s.getState($filterPickedCount)).toBe(1);
    expect(s.getState($filterRows).map((d) => s.getState($isPicked)(d))).toEqual([false, false]);
    await allSettled(filterRowToggled, { scope: s, params: 'A' });
    expect(s.getState($filterPickedCount)).toBe(2);
    await allSettled(advanceFilterApplied, { scope: s });
    expect(s.getState($filterOpen)).toBe(false);
    // The serials come from the server on Apply (by serial), at most a report list's worth.
    expect(resolved.at(-1)!.limit).toBe(2000);
    expect(s.getState($temporarySerials)).toEqual(['A', 'C']);
    // The counts are the server's for the list's serials; the browser never reads the whole device list.
    expect(counted).toEqual([['A', 'C']]);
    expect(s.getState($counts)).toEqual({ devices: 2, brands: 2, counties: 2 });
    expect(wholeLists).toBe(0);
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

  it("Select All with no search selects the fleet: the list's server total shown, Apply refused above a report list", async () => {
    const s = scope([
      [resolvePicksFx, async (input: Resolve) => (resolved.push(input), { total: 100_000, serials: ['A', 'B'] })],
      [filterPages.fetchPageFx, async () => ({ items: Object.values(devices), nextCursor: 'd3', total: 100_000 })],
    ]);
    await allSettled(tagsRequested, { scope: s });
    await allSettled(advanceFilterOpened, { scope: s });
    await allSettled(filterAllSelected, { scope: s });
    // One step, and the count is the server's total of the list shown: no call of its own.
    expect(s.getState($filterPickedCount)).toBe(100_000);
    expect(resolved).toEqual([]);
    expect(s.getState($isPicked)(devices.C)).toBe(true);
    await allSettled(advanceFilterApplied, { scope: s });
    expect(resolved).toEqual([{ selection: { steps: [{ op: 'select', filter: {} }] }, limit: 2000 }]);
    expect(resolved).toEqual([{ selection: { steps: [{ op: 'select', filter: {} }] }, limit: 2000 }]);
    expect(s.getState($filterOpen)).toBe(true);
    expect(s.getState($filterError)).toBe(
      'This selection holds 100,000 devices; a report list holds at most 2,000. Narrow the search.',
    );
    expect(s.getState($temporarySerials)).toEqual([]);
    // Picks the browser knows (toggles alone) apply without asking the server.
    await allSettled(filterAllCleared, { scope: s });
    expect(s.getState($filterPickedCount)).toBe(0);
    await allSettled(filterRowToggled, { scope: s, params: 'B' });
    const asked = resolved.length;
    await allSettled(advanceFilterApplied, { scope: s });
    expect(resolved.length).toBe(asked);
    expect(s.getState($temporarySerials)).toEqual(['B']);
  });

  it('a count answered late for older picks does not replace the count of the picks held', async () => {
    const waiting: (() => void)[] = [];
    const s = scope([
      [
        resolvePicksFx,
        async (input: Resolve) => {
          const answer = fakeResolve(input);
          // The first count answers only after the second.
          if (resolved.length === 1) await new Promise<void>((go) => waiting.push(go));
          return answer;
        },
      ],
    ]);
    await allSettled(tagsRequested, { scope: s });
    await allSettled(advanceFilterOpened, { scope: s });
    await allSettled(filterRowToggled, { scope: s, params: 'C' });
    await allSettled(filterSearchChanged, { scope: s, params: 'audubon' });
    const settled = [allSettled(filterAllSelected, { scope: s }), allSettled(filterRowToggled, { scope: s, params: 'A' })];
    // C, and B of the search (A toggled off): 2, from the second answer while the first still waits.
    for (let i = 0; i < 100 && s.getState($filterPickedCount) !== 2; i++) await new Promise((r) => setTimeout(r, 5));
    expect(s.getState($filterPickedCount)).toBe(2);
    expect(resolved).toHaveLength(2);
    waiting.forEach((go) => go());
    await Promise.all(settled);
    expect(s.getState($filterPickedCount)).toBe(2);
  });

  it('the counts follow the list (a tag chosen, picks applied), and a late answer for an older list never replaces them', async () => {
    const waiting: (() => void)[] = [];
    const s = scope([
      [
        listCountsFx,
        async (serials: string[]) => {
          const answer = await fakeCounts(serials);
          // The first count (the Parks tag's) answers only after the next list's.
          if (counted.length === 1) await new Promise<void>((go) => waiting.push(go));
          return answer;
        },
      ],
    ]);
    const settled: Promise<unknown>[] = [];
    const run = <T>(unit: EventCallable<T>, ...params: T extends void ? [] : [T]) =>
      settled.push(allSettled(unit as EventCallable<unknown>, { scope: s, params: params[0] }));
    const until = async (ok: () => boolean) => {
      for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 5));
    };
    await allSettled(tagsRequested, { scope: s });
    expect(s.getState($counts)).toEqual({ devices: 0, brands: 0, counties: 0 });
    expect(counted).toEqual([]);
    run(tagClicked, 1);
    await until(() => waiting.length > 0);
    // Asked, not answered yet: no number is shown rather than a wrong one.
    expect(s.getState($counts)).toBeNull();
    run(tagClicked, 1);
    run(advanceFilterOpened);
    run(filterRowToggled, 'C');
    run(advanceFilterApplied);
    await until(() => s.getState($counts) !== null);
    expect(s.getState($currentSerials)).toEqual(['C']);
    expect(s.getState($counts)).toEqual({ devices: 1, brands: 1, counties: 1 });
    waiting.forEach((go) => go());
    await Promise.all(settled);
    expect(s.getState($counts)).toEqual({ devices: 1, brands: 1, counties: 1 });
    // Back on the tag: its own count, asked again.
    await allSettled(tagClicked, { scope: s, params: 1 });
    expect(s.getState($counts)).toEqual({ devices: 2, brands: 1, counties: 1 });
    expect(counted).toEqual([['A', 'B'], ['C'], ['A', 'B']]);
    expect(wholeLists).toBe(0);
  });
});
