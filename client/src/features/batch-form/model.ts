import {
  addBatchSchema,
  editBatchSchema,
  fieldErrors,
  type AddBatchInput,
  type BatchAnswer,
  type EditBatchInput,
  batchesApi,
} from '@fleet/shared';
import { combine, createEvent, createStore, sample } from 'effector';
import { batchesRequested } from '../../entities/batch';
import { $accessLevel, sessionEnded } from '../../entities/session';
import { call, createApiFx, fieldMessages, serverReason } from '../../shared/api';
import { createResultPopup } from '../../shared/lib';

/**
 * ADD NEW BATCH and Edit Batch (spec sections 2, 5, 7, 8): batch type, number, install and expiry dates
 * and volume in fl.oz., each 'Required'; the type is fixed in edit; a number already used answers
 * 'already has batch number' under the field. Edit also deletes, after 'Do you want to remove this
 * Batch?'. Result popups close themselves after 2 s; a success re-reads the Batch List.
 * Only distributors manage batches (the server refuses everyone else).
 */
export type BatchFormMode = 'closed' | 'add' | 'edit';
export type BatchFormValues = {
  /** '1' Sunscreen, '2' Sanitizer, '' while none is chosen. */
  batchType: string;
  batchNumber: string;
  installDate: string;
  expiryDate: string;
  /** fl.oz. as typed. */
  batchVolume: string;
};
export type BatchField = keyof BatchFormValues;
export type BatchFieldErrors = Partial<Record<BatchField, string>>;

/** Spec section 8, word for word (edit's words follow add's: the spec names none). */
export const BATCH_RESULT = {
  added: 'BATCH ADDED',
  addFailed: 'FAIL TO ADD BATCH',
  edited: 'BATCH EDITED',
  editFailed: 'FAIL TO EDIT BATCH',
  deleted: 'BATCH DELETED',
  deletedText: 'Batch deleted successfully.',
  deleteFailed: 'FAIL TO DELETE BATCH',
  deleteFailedText: 'Failed to delete batch.',
  deleteQuestion: 'Do you want to remove this Batch?',
} as const;
/** Spec section 9: batch popups close after 2 s. */
export const BATCH_RESULT_MS = 2000;

export const EMPTY_BATCH_FORM: BatchFormValues = {
  batchType: '',
  batchNumber: '',
  installDate: '',
  expiryDate: '',
  batchVolume: '',
};

export function formOfBatch(batch: BatchAnswer): BatchFormValues {
  return {
    batchType: String(batch.batch_type),
    batchNumber: batch.batch_no,
    installDate: batch.install_date,
    expiryDate: batch.expire_date,
    batchVolume: String(batch.batchVolume),
  };
}

export type CheckedBatch<T> = { ok: true; input: T } | { ok: false; errors: BatchFieldErrors };

const blankToUndefined = (value: string) => (value.trim() === '' ? undefined : value);
/** What the schema reads: numbers where the API wants numbers, nothing for an empty field. */
export function batchFormInput(form: BatchFormValues): Record<string, unknown> {
  const volume = blankToUndefined(form.batchVolume);
  return {
    batchType: form.batchType === '' ? undefined : Number(form.batchType),
    batchNumber: form.batchNumber,
    installDate: form.installDate,
    expiryDate: form.expiryDate,
    batchVolume: volume === undefined ? undefined : Number(volume),
  };
}

const firstPerField = (errors: Record<string, string[]>): BatchFieldErrors => {
  const out: BatchFieldErrors = {};
  for (const [key, list] of Object.entries(errors)) if (key in EMPTY_BATCH_FORM && list[0]) out[key as BatchField] = list[0];
  return out;
};

/** The client-side check: the schemas the server parses with, so the messages are the same ('Required'). */
export function checkBatchForm(form: BatchFormValues, mode: 'add'): CheckedBatch<AddBatchInput>;
export function checkBatchForm(form: BatchFormValues, mode: 'edit'): CheckedBatch<EditBatchInput>;
export function checkBatchForm(form: BatchFormValues, mode: 'add' | 'edit'): CheckedBatch<AddBatchInput | EditBatchInput> {
  const parsed = (mode === 'add' ? addBatchSchema : editBatchSchema).safeParse(batchFormInput(form));
  return parsed.success ? { ok: true, input: parsed.data } : { ok: false, errors: firstPerField(fieldErrors(parsed.error)) };
}

// ---------------------------------------------------------------- calls

export const addBatchFx = createApiFx((input: AddBatchInput) => call(batchesApi.add, { body: input }));
export const editBatchFx = createApiFx(({ id, input }: { id: number; input: EditBatchInput }) =>
  call(batchesApi.edit, { params: { id }, body: input }),
);
export const deleteBatchFx = createApiFx(async (id: number) => {
  await call(batchesApi.remove, { params: { id } });
  return id;
});

// ---------------------------------------------------------------- events and stores

export const batchAddOpened = createEvent();
export const batchEditOpened = createEvent<BatchAnswer>();
export const batchFormClosed = createEvent();
export const batchFieldChanged = createEvent<{ field: BatchField; value: string }>();
export const batchFormSubmitted = createEvent();
export const batchDeleteRequested = createEvent();
export const batchDeleteCancelled = createEvent();
export const batchDeleteConfirmed = createEvent();
const formFinished = createEvent();

export const batchResult = createResultPopup({ ms: BATCH_RESULT_MS, resetOn: [sessionEnded] });

export const $canManageBatches = $accessLevel.map((level) => level === 'distributor');
export const $batchFormMode = createStore<BatchFormMode>('closed');
export const $editedBatch = createStore<BatchAnswer | null>(null);
export const $batchForm = createStore<BatchFormValues>(EMPTY_BATCH_FORM);
export const $batchErrors = createStore<BatchFieldErrors>({});
export const $confirmingBatchDelete = createStore(false);
export const $batchSaving = combine(addBatchFx.pending, editBatchFx.pending, deleteBatchFx.pending, (a, e, d) => a || e || d);

const addOpened = sample({ clock: batchAddOpened, filter: $canManageBatches });
const editOpened = sample({ clock: batchEditOpened, filter: $canManageBatches });

$batchFormMode
  .on(addOpened, () => 'add')
  .on(editOpened, () => 'edit')
  .reset(batchFormClosed, formFinished, sessionEnded);
$editedBatch.on(editOpened, (_, batch) => batch).reset(addOpened, batchFormClosed, formFinished, sessionEnded);
$batchForm
  .on(editOpened, (_, batch) => formOfBatch(batch))
  .on(batchFieldChanged, (form, { field, value }) => ({ ...form, [field]: value }))
  .reset(addOpened, batchFormClosed, formFinished, sessionEnded);
$batchErrors
  .on(batchFieldChanged, (errors, { field }) => {
    if (!(field in errors)) return errors;
    const { [field]: _gone, ...rest } = errors;
    return rest;
  })
  .reset(addOpened, editOpened, batchFormClosed, formFinished, sessionEnded);
$confirmingBatchDelete
  .on(batchDeleteRequested, () => true)
  .reset(batchDeleteCancelled, deleteBatchFx, batchFormClosed, formFinished, sessionEnded);

// ---------------------------------------------------------------- saving

const checked = sample({
  clock: batchFormSubmitted,
  source: { form: $batchForm, mode: $batchFormMode, saving: $batchSaving },
  filter: ({ mode, saving }) => mode !== 'closed' && !saving,
  fn: ({ form, mode }) => ({ mode, result: mode === 'add' ? checkBatchForm(form, 'add') : checkBatchForm(form, 'edit') }),
});
$batchErrors.on(checked, (_, { result }) => (result.ok ? {} : result.errors));
sample({
  clock: checked,
  filter: ({ mode, result }) => mode === 'add' && result.ok,
  fn: ({ result }) => (result as { input: AddBatchInput }).input,
  target: addBatchFx,
});
sample({
  clock: checked,
  source: $editedBatch,
  filter: (batch, { mode, result }) => batch !== null && mode === 'edit' && result.ok,
  fn: (batch, { result }) => ({ id: batch!.id, input: (result as { input: EditBatchInput }).input }),
  target: editBatchFx,
});
// A 400 names its fields ('already has batch number'): they show under the inputs.
const serverFieldErrors = (error: Error): BatchFieldErrors =>
  firstPerField(Object.fromEntries(Object.entries(fieldMessages(error)).map(([k, v]) => [k, [v]])));
$batchErrors.on([addBatchFx.failData, editBatchFx.failData], (errors, error) => ({ ...errors, ...serverFieldErrors(error) }));

sample({ clock: deleteBatchFx.done, source: $batchFormMode, filter: (mode) => mode === 'edit', target: formFinished });
sample({ clock: [addBatchFx.done, editBatchFx.done], target: formFinished });
sample({ clock: [addBatchFx.done, editBatchFx.done, deleteBatchFx.done], fn: () => undefined, target: batchesRequested });

sample({
  clock: addBatchFx.doneData,
  fn: (b) => ({
    tone: 'success' as const,
    title: BATCH_RESULT.added,
    message: `BATCH ${b.batch_no} (${b.batch_type_name}, ${b.batchVolume} fl.oz.) is in the Batch List.`,
  }),
  target: batchResult.shown,
});
sample({
  clock: editBatchFx.doneData,
  fn: (b) => ({ tone: 'success' as const, title: BATCH_RESULT.edited, message: `BATCH ${b.batch_no} is saved.` }),
  target: batchResult.shown,
});
sample({
  clock: addBatchFx.failData,
  fn: (e) => ({ tone: 'danger' as const, title: BATCH_RESULT.addFailed, message: serverReason(e) }),
  target: batchResult.shown,
});
sample({
  clock: editBatchFx.failData,
  fn: (e) => ({ tone: 'danger' as const, title: BATCH_RESULT.editFailed, message: serverReason(e) }),
  target: batchResult.shown,
});

// ---------------------------------------------------------------- delete (edit only, after the question)

sample({
  clock: batchDeleteConfirmed,
  source: { asked: $confirmingBatchDelete, batch: $editedBatch, saving: $batchSaving },
  filter: ({ asked, batch, saving }) => asked && batch !== null && !saving,
  fn: ({ batch }) => batch!.id,
  target: deleteBatchFx,
});
sample({
  clock: deleteBatchFx.done,
  fn: () => ({ tone: 'success' as const, title: BATCH_RESULT.deleted, message: BATCH_RESULT.deletedText }),
  target: batchResult.shown,
});
sample({
  clock: deleteBatchFx.failData,
  fn: (e) => {
    const reason = serverReason(e);
    return {
      tone: 'danger' as const,
      title: BATCH_RESULT.deleteFailed,
      message: reason ? `${BATCH_RESULT.deleteFailedText} ${reason}` : BATCH_RESULT.deleteFailedText,
    };
  },
  target: batchResult.shown,
});
