import { useUnit } from 'effector-react';
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { $clientChoices } from '../../../entities/user';
import { Button, FieldError, FormDialog, FormTextField, invalidProps, ResultPopup, SelectField } from '../../../shared/ui';
import {
  $brandErrors,
  $brandForm,
  $brandFormMode,
  $brandSaving,
  $editedBrand,
  BRAND_IMAGE_TYPES,
  brandClientChosen,
  brandFormClosed,
  brandFormSubmitted,
  brandImageChosen,
  brandNameChanged,
  brandResult,
} from '../model';
import styles from './brand-form.module.css';

/** ADD NEW BRAND and the brand details dialog, and their result popups. Mount once. */
export function BrandFormDialog() {
  const [mode, form, errors, saving, brand, clients, result] = useUnit([
    $brandFormMode,
    $brandForm,
    $brandErrors,
    $brandSaving,
    $editedBrand,
    $clientChoices,
    brandResult.$result,
  ]);
  const [close, setName, setImage, chooseClient, submit, closeResult] = useUnit([
    brandFormClosed,
    brandNameChanged,
    brandImageChosen,
    brandClientChosen,
    brandFormSubmitted,
    brandResult.closed,
  ]);
  const editing = mode === 'edit';
  // A client already on the brand stays shown in its slot even when myUser no longer lists it (deactivated).
  const choices =
    editing && brand
      ? [
          ...clients,
          ...brand.clients
            .filter((c) => !clients.some((x) => x.email === c.email))
            .map((c) => ({ ...c, label: c.company || c.email })),
        ]
      : clients;

  return (
    <>
      <FormDialog
        open={mode !== 'closed'}
        onClose={close}
        onSubmit={submit}
        title={editing ? `Brand details: ${brand?.name ?? ''}` : 'ADD NEW BRAND'}
        formLabel={editing ? 'Brand details' : 'Add new brand'}
        saving={saving}
        width={560}
        className={styles.form}
      >
        <FormTextField
          label="Brand Name"
          autoComplete="off"
          maxLength={100}
          value={form.name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
        />
        <ImageField
          file={form.image}
          current={editing ? (brand?.image_url ?? null) : null}
          error={errors.image}
          onFile={setImage}
        />
        <fieldset className={styles.clients}>
          <legend className={styles.legend}>Clients (up to {form.clients.length})</legend>
          {choices.length === 0 ? <p className={styles.hint}>No client accounts to choose from yet.</p> : null}
          <div className={styles.slots}>
            {form.clients.map((email, slot) => (
              <SelectField
                key={slot}
                label={`Client ${slot + 1}`}
                value={email}
                onChange={(e) => chooseClient({ slot, email: e.target.value })}
              >
                <option value="">None</option>
                {choices.map((c) => (
                  <option
                    key={c.email}
                    value={c.email}
                    title={c.email}
                    disabled={form.clients.some((e, i) => i !== slot && e === c.email)}
                  >
                    {c.label}
                  </option>
                ))}
              </SelectField>
            ))}
          </div>
          {errors.clients ? <p className={styles.error}>{errors.clients}</p> : null}
        </fieldset>
      </FormDialog>
      <ResultPopup result={result} onClose={closeResult} testId="brand-result" />
    </>
  );
}

/** The logo: drop a file on the zone or choose one; a preview of the new file, else the current logo. */
function ImageField({
  file,
  current,
  error,
  onFile,
}: {
  file: File | null;
  current: string | null;
  error: string | undefined;
  onFile: (file: File | null) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const [over, setOver] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  const shown = preview ?? current;
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) onFile(dropped);
  };
  return (
    <div className={styles.imageField}>
      <span className={styles.label}>Brand Image</span>
      <div
        className={styles.dropZone}
        data-over={over || undefined}
        data-invalid={error ? true : undefined}
        data-testid="brand-image-drop"
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={drop}
      >
        {shown ? (
          <img className={styles.preview} src={shown} alt={file ? `New logo ${file.name}` : 'Current logo'} />
        ) : (
          <span className={styles.placeholder} aria-hidden="true">
            Logo
          </span>
        )}
        <div className={styles.dropText}>
          <p>{file ? file.name : 'Drag and drop an image here, or'}</p>
          <Button variant="secondary" onClick={() => input.current?.click()} {...invalidProps(errorId, error)}>
            {file || current ? 'Change image' : 'Choose image'}
          </Button>
          <p className={styles.hint}>PNG, JPEG, GIF or WebP, at most 2 MB.</p>
        </div>
        <input
          ref={input}
          type="file"
          accept={BRAND_IMAGE_TYPES.join(',')}
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Brand image file"
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            if (chosen) onFile(chosen);
            e.target.value = '';
          }}
        />
      </div>
      <FieldError id={errorId}>{error}</FieldError>
    </div>
  );
}
