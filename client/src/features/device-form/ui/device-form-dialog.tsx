import { PUMP_TYPES, type BatchAnswer, type PumpType } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useId, type FormEvent } from 'react';
import { Button, ConfirmDialog, Dialog, FormTextField, ResultPopup, SelectField, Spinner } from '../../../shared/ui';
import { DEVICE_FORM_TITLE } from '../entry';
import {
  $available,
  $availableStatus,
  $brands,
  $confirmingDelete,
  $deviceStatus,
  $editSerial,
  $errors,
  $form,
  $leftBatches,
  $mode,
  $placingOnMap,
  $result,
  $rightBatches,
  $saving,
  deleteCancelled,
  deleteConfirmed,
  deleteRequested,
  deviceFormClosed,
  fieldChanged,
  formSubmitted,
  locationEventTypeChanged,
  pumpTypeChanged,
  RESULT_TEXT,
  resultClosed,
  serialChosen,
  type EnteredField,
} from '../model';
import { AddressField } from './address-field';
import { LocationField } from './location-field';
import styles from './device-form.module.css';

/** A left pump always holds a fluid (the shared schema refuses Unspecified there). */
const LEFT_PUMP_TYPES = PUMP_TYPES.filter((t) => t !== 'Unspecified');
const RIGHT_PUMP_TYPES = ['Unspecified', ...LEFT_PUMP_TYPES] as const;

/**
 * ADD NEW DEVICE and EDIT DEVICE (spec section 2, popups), the delete confirmation and the result
 * popups. Mount it once; it opens on addDeviceOpened / editDeviceOpened(serial). While closed its
 * dialogs are empty, closed <dialog> elements (kept so the browser hands focus back when one closes).
 */
export function DeviceFormDialog() {
  const [mode, status, saving, confirming, serial, form, result, placing] = useUnit([
    $mode,
    $deviceStatus,
    $saving,
    $confirmingDelete,
    $editSerial,
    $form,
    $result,
    $placingOnMap,
  ]);
  const [close, submit, askDelete, cancelDelete, confirmDelete, closeResult] = useUnit([
    deviceFormClosed,
    formSubmitted,
    deleteRequested,
    deleteCancelled,
    deleteConfirmed,
    resultClosed,
  ]);
  const formId = useId();
  const editing = mode === 'edit';
  const ready = mode === 'add' || status === 'ready';

  return (
    <>
      <Dialog
        // Out of the way while the pin is placed on the map, its fields kept (the model still holds them).
        open={mode !== 'closed' && !placing}
        onClose={close}
        title={editing ? DEVICE_FORM_TITLE.edit : DEVICE_FORM_TITLE.add}
        width={760}
        actions={
          <>
            {editing ? (
              <Button variant="danger" className={styles.deleteButton} onClick={() => askDelete()} disabled={!ready || saving}>
                Delete Device
              </Button>
            ) : null}
            <Button variant="secondary" onClick={() => close()}>
              Cancel
            </Button>
            <Button type="submit" form={formId} loading={saving} disabled={!ready}>
              {editing ? 'Save' : 'Add Device'}
            </Button>
          </>
        }
      >
        {ready ? (
          <DeviceFormFields
            formId={formId}
            onSubmit={(event) => {
              event.preventDefault();
              submit();
            }}
          />
        ) : status === 'failed' ? (
          <p className={styles.state} role="alert">
            This device could not be loaded.
          </p>
        ) : (
          <p className={styles.state} role="status">
            <Spinner size={18} /> Loading device…
          </p>
        )}
      </Dialog>

      <ConfirmDialog
        open={confirming}
        title="Delete this device?"
        onConfirm={() => confirmDelete()}
        onCancel={() => cancelDelete()}
      >
        <p>
          {form.deviceName || 'This device'} (S/N {serial}) will be taken off its site and its serial becomes available again.
        </p>
      </ConfirmDialog>

      <ResultPopup result={result} onClose={closeResult} testId="device-form-result" />
    </>
  );
}

function DeviceFormFields({ formId, onSubmit }: { formId: string; onSubmit: (event: FormEvent) => void }) {
  const [mode, form, errors, available, availableStatus, brands, leftBatches, rightBatches] = useUnit([
    $mode,
    $form,
    $errors,
    $available,
    $availableStatus,
    $brands,
    $leftBatches,
    $rightBatches,
  ]);
  const [changed, chooseSerial, setPumpType, setEventType] = useUnit([
    fieldChanged,
    serialChosen,
    pumpTypeChanged,
    locationEventTypeChanged,
  ]);
  const editing = mode === 'edit';
  const text = (field: EnteredField) => ({
    name: field,
    value: form[field],
    error: errors[field],
    onChange: (e: { target: { value: string } }) => changed({ field, value: e.target.value }),
  });
  const serialPlaceholder =
    availableStatus === 'loading' || availableStatus === 'idle'
      ? RESULT_TEXT.listLoading
      : availableStatus === 'failed'
        ? RESULT_TEXT.listFailed
        : available.length
          ? 'Select a serial number'
          : 'No serial number available';

  return (
    <form
      id={formId}
      className={styles.form}
      onSubmit={onSubmit}
      noValidate
      aria-label={editing ? 'Edit device' : 'Add new device'}
    >
      <div className={styles.grid}>
        {editing ? (
          <FormTextField label="Serial Number" value={form.serialNumber} readOnly error={errors.serialNumber} />
        ) : (
          <SelectField
            label="Serial Number"
            value={form.serialNumber}
            aria-busy={availableStatus === 'loading' || undefined}
            error={errors.serialNumber}
            onChange={(e) => chooseSerial(e.target.value)}
          >
            <option value="">{serialPlaceholder}</option>
            {available.map((d) => (
              <option key={d.serial} value={d.serial}>
                {d.serial}
              </option>
            ))}
          </SelectField>
        )}
        <FormTextField label="Site/Event Name" autoComplete="off" maxLength={120} {...text('deviceName')} />

        <SelectField label="Brand" {...text('brandId')}>
          <option value="">{brands.length ? 'Select a brand' : 'No brand yet'}</option>
          {brands.map((b) => (
            <option key={b.id} value={String(b.id)}>
              {b.name}
            </option>
          ))}
        </SelectField>
        <FormTextField
          label="Device Number (1-99)"
          type="number"
          inputMode="numeric"
          min={1}
          max={99}
          step={1}
          {...text('deviceNumber')}
        />

        <SelectField
          label="Location Event Type"
          value={form.locationEventType}
          onChange={(e) => setEventType(e.target.value as 'SITE' | 'EVENT')}
        >
          <option value="SITE">SITE</option>
          <option value="EVENT">EVENT</option>
        </SelectField>
        <div className={styles.spacer} aria-hidden="true" />

        <AddressField />
        <LocationField />

        <PumpRow
          side="Left"
          type={form.leftPumpType}
          types={LEFT_PUMP_TYPES}
          fixed={editing}
          onType={(type) => setPumpType({ pump: 'left', type })}
          batches={leftBatches}
          batchField={text('batchNumber')}
        />
        <PumpRow
          side="Right"
          type={form.rightPumpType}
          types={RIGHT_PUMP_TYPES}
          fixed={editing}
          onType={(type) => setPumpType({ pump: 'right', type })}
          batches={rightBatches}
          batchField={text('batch2Number')}
        />
      </div>

      <fieldset className={styles.sim}>
        <legend className={styles.legend}>SIM card (optional)</legend>
        <div className={styles.simGrid}>
          <FormTextField label="SIM Phone Number" type="tel" autoComplete="off" maxLength={32} {...text('simcardPhoneNumber')} />
          <FormTextField label="IMEI" inputMode="numeric" autoComplete="off" maxLength={32} {...text('imei')} />
          <FormTextField label="SIM Serial Number" autoComplete="off" maxLength={32} {...text('simSerialNumber')} />
        </div>
      </fieldset>
    </form>
  );
}

type BatchField = {
  name: string;
  value: string;
  error: string | undefined;
  onChange: (e: { target: { value: string } }) => void;
};

/** One pump: its fluid (fixed once placed) and the batch feeding it. */
function PumpRow(props: {
  side: 'Left' | 'Right';
  type: PumpType;
  types: readonly PumpType[];
  fixed: boolean;
  onType: (type: PumpType) => void;
  batches: BatchAnswer[];
  batchField: BatchField;
}) {
  const { side, type, types, fixed, onType, batches, batchField } = props;
  const none = type === 'Unspecified';
  return (
    <>
      {fixed ? (
        <FormTextField label={`${side} Pump Type`} value={type} readOnly title="Pump types cannot be changed" />
      ) : (
        <SelectField label={`${side} Pump Type`} value={type} onChange={(e) => onType(e.target.value as PumpType)}>
          {types.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </SelectField>
      )}
      <SelectField label={`${side} Pump Batch`} disabled={none} {...batchField} value={none ? '' : batchField.value}>
        <option value="">
          {none ? 'None (no right pump)' : batches.length ? 'Select a batch' : `No ${type.toLowerCase()} batch available`}
        </option>
        {batches.map((b) => (
          <option key={b.id} value={String(b.id)}>
            {`BATCH ${b.batch_no} · expires ${b.expire_date}${b.status === 'ALMOST_EXPIRED' ? ' (Almost Expire)' : ''}`}
          </option>
        ))}
      </SelectField>
    </>
  );
}
