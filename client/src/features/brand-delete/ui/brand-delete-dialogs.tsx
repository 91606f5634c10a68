import { plural, pluralWord } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { Button, ConfirmDialog, Dialog, ResultPopup, SelectField } from '../../../shared/ui';
import {
  $deleteStep,
  $deletingBrand,
  $transferChoices,
  $transferTarget,
  $transferTargetError,
  BRAND_DELETE_TEXT,
  brandDeleteCancelled,
  brandDeleteConfirmed,
  brandDeleteResult,
  deleteBrandFx,
  transferAnswered,
  transferTargetChosen,
  transferTargetConfirmed,
} from '../model';

/** The steps of the brand delete dialog and its result. Mount once beside the Brand List. */
export function BrandDeleteDialogs() {
  const [step, brand, choices, target, targetError, pending, result] = useUnit([
    $deleteStep,
    $deletingBrand,
    $transferChoices,
    $transferTarget,
    $transferTargetError,
    deleteBrandFx.pending,
    brandDeleteResult.$result,
  ]);
  const [answer, choose, pick, cancel, confirm, closeResult] = useUnit([
    transferAnswered,
    transferTargetChosen,
    transferTargetConfirmed,
    brandDeleteCancelled,
    brandDeleteConfirmed,
    brandDeleteResult.closed,
  ]);
  const name = brand?.name ?? '';
  const devices = brand ? plural(brand.device_count, 'device') : '';
  return (
    <>
      <ConfirmDialog
        open={step === 'transfer-ask'}
        title={BRAND_DELETE_TEXT.transferQuestion}
        onConfirm={() => answer(true)}
        onCancel={() => answer(false)}
      >
        <p>
          {name} has {devices}. Yes moves them to a brand you choose; No leaves them with no brand.
        </p>
      </ConfirmDialog>
      <Dialog
        open={step === 'transfer-pick'}
        onClose={cancel}
        title={`Transfer the ${devices} of ${name}`}
        actions={
          <>
            <Button variant="secondary" onClick={() => cancel()}>
              Cancel
            </Button>
            <Button onClick={() => pick()}>Continue</Button>
          </>
        }
      >
        <SelectField
          label="Transfer to"
          value={target ?? ''}
          error={targetError ?? undefined}
          onChange={(e) => choose(e.target.value ? Number(e.target.value) : null)}
        >
          <option value="">Select a brand</option>
          {choices.map((b) => (
            <option key={b.id} value={b.id}>
              {b.name}
            </option>
          ))}
        </SelectField>
      </Dialog>
      <Dialog
        open={step === 'confirm'}
        onClose={cancel}
        title={BRAND_DELETE_TEXT.confirm(name)}
        tone="danger"
        actions={
          <>
            <Button variant="secondary" onClick={() => cancel()}>
              No
            </Button>
            <Button variant="danger" loading={pending} onClick={() => confirm()}>
              Yes
            </Button>
          </>
        }
      >
        <p>
          {brand && brand.device_count > 0
            ? target !== null
              ? `Its ${devices} ${pluralWord(brand.device_count, 'moves', 'move')} to ${choices.find((b) => b.id === target)?.name ?? 'the chosen brand'}.`
              : `Its ${devices} ${pluralWord(brand.device_count, 'keeps', 'keep')} no brand.`
            : 'It has no devices.'}
        </p>
      </Dialog>
      <ResultPopup result={result} onClose={closeResult} testId="brand-delete-result" />
    </>
  );
}
