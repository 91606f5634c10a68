import { useUnit } from 'effector-react';
import { Button, ConfirmDialog, FormDialog, FormTextField, ResultPopup, SelectField } from '../../../shared/ui';
import {
  $batchErrors,
  $batchForm,
  $batchFormMode,
  $batchSaving,
  $confirmingBatchDelete,
  $editedBatch,
  BATCH_RESULT,
  batchDeleteCancelled,
  batchDeleteConfirmed,
  batchDeleteRequested,
  batchFieldChanged,
  batchFormClosed,
  batchFormSubmitted,
  batchResult,
  type BatchField,
} from '../model';
import styles from './batch-form.module.css';

/**
 * ADD NEW BATCH and Edit Batch, the delete question and the result popups. Mount once; it opens on
 * batchAddOpened / batchEditOpened(batch).
 */
export function BatchFormDialog() {
  const [mode, form, errors, saving, confirming, batch, result] = useUnit([
    $batchFormMode,
    $batchForm,
    $batchErrors,
    $batchSaving,
    $confirmingBatchDelete,
    $editedBatch,
    batchResult.$result,
  ]);
  const [close, changed, submit, askDelete, cancelDelete, confirmDelete, closeResult] = useUnit([
    batchFormClosed,
    batchFieldChanged,
    batchFormSubmitted,
    batchDeleteRequested,
    batchDeleteCancelled,
    batchDeleteConfirmed,
    batchResult.closed,
  ]);
  const editing = mode === 'edit';
  const field = (name: BatchField) => ({
    name,
    value: form[name],
    error: errors[name],
    onChange: (e: { target: { value: string } }) => changed({ field: name, value: e.target.value }),
  });

  return (
    <>
      <FormDialog
        open={mode !== 'closed'}
        onClose={close}
        onSubmit={submit}
        title={editing ? 'Edit Batch' : 'ADD NEW BATCH'}
        formLabel={editing ? 'Edit batch' : 'Add new batch'}
        saving={saving}
        className={styles.form}
        extraActions={
          editing ? (
            <Button variant="danger" className={styles.deleteButton} onClick={() => askDelete()} disabled={saving}>
              DELETE
            </Button>
          ) : null
        }
      >
        {editing ? (
          <FormTextField
            label="Batch Type"
            value={batch?.batch_type_name ?? ''}
            readOnly
            title="The batch type cannot be changed"
            error={errors.batchType}
          />
        ) : (
          <SelectField label="Batch Type" {...field('batchType')}>
            <option value="">Select a type</option>
            <option value="1">Sunscreen</option>
            <option value="2">Sanitizer</option>
          </SelectField>
        )}
        <FormTextField label="Batch Number" autoComplete="off" maxLength={64} {...field('batchNumber')} />
        <div className={styles.pair}>
          <FormTextField label="Install Date" type="date" {...field('installDate')} />
          <FormTextField label="Expiry Date" type="date" {...field('expiryDate')} />
        </div>
        <FormTextField
          label="Batch Volume (fl.oz.)"
          type="number"
          inputMode="decimal"
          min={0}
          step="any"
          {...field('batchVolume')}
        />
      </FormDialog>

      <ConfirmDialog
        open={confirming}
        title={BATCH_RESULT.deleteQuestion}
        onConfirm={() => confirmDelete()}
        onCancel={() => cancelDelete()}
      >
        <p>BATCH {batch?.batch_no} will be removed from the Batch List.</p>
      </ConfirmDialog>

      <ResultPopup result={result} onClose={closeResult} testId="batch-result" />
    </>
  );
}
