import { useUnit } from 'effector-react';
import { useEffect, type FormEvent } from 'react';
import { Button, Dialog, TextField } from '../../../shared/ui';
import {
  $confirmOpen,
  $currentName,
  $tagDialogOpen,
  $tagFormError,
  $tagName,
  $tagNameError,
  $tagSaving,
  newTagCancelled,
  newTagClicked,
  newTagConfirmed,
  TAG_TEXT,
  tagDialogClosed,
  tagNameChanged,
  tagSaved,
} from '../model';
import styles from './tags.module.css';

/** The Tag name dialog (Back, Save, New Tag) and the question before a new tag drops unsaved devices. */
export function TagNameDialog() {
  const [open, name, nameError, formError, saving, current, confirming] = useUnit([
    $tagDialogOpen,
    $tagName,
    $tagNameError,
    $tagFormError,
    $tagSaving,
    $currentName,
    $confirmOpen,
  ]);
  const [close, setName, save, newTag, confirm, cancel] = useUnit([
    tagDialogClosed,
    tagNameChanged,
    tagSaved,
    newTagClicked,
    newTagConfirmed,
    newTagCancelled,
  ]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save();
  };
  return (
    <>
      <Dialog
        open={open}
        onClose={close}
        title="Tag name"
        width={460}
        actions={
          <>
            <Button variant="secondary" className={styles.newTag} onClick={() => newTag()}>
              New Tag
            </Button>
            <Button variant="secondary" onClick={() => close()}>
              Back
            </Button>
            <Button type="submit" form="tag-name-form" loading={saving}>
              Save
            </Button>
          </>
        }
      >
        <form id="tag-name-form" onSubmit={submit} noValidate>
          <TextField
            label="Tag name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            autoComplete="off"
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? 'tag-name-error' : undefined}
          />
          {nameError ? (
            <p id="tag-name-error" className={styles.fieldError} role="alert">
              {nameError}
            </p>
          ) : null}
          <p className={styles.dialogNote}>
            Saves the devices of {current === TAG_TEXT.temporary ? `the ${TAG_TEXT.temporary}` : `“${current}”`} under this name.
          </p>
          {formError ? (
            <p className={styles.formError} role="alert">
              {formError}
            </p>
          ) : null}
        </form>
      </Dialog>
      <NewTagConfirm open={confirming} onConfirm={confirm} onCancel={cancel} />
    </>
  );
}

/** 'Open New Tag Without Save Current Report List?': Enter confirms, Escape (or No) closes. */
function NewTagConfirm({ open, onConfirm, onCancel }: { open: boolean; onConfirm: () => void; onCancel: () => void }) {
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Enter') return;
      event.preventDefault();
      onConfirm();
    };
    document.addEventListener('keydown', onKey, true);
    return () => document.removeEventListener('keydown', onKey, true);
  }, [open, onConfirm]);
  return (
    <Dialog
      open={open}
      onClose={onCancel}
      title={TAG_TEXT.confirmNew}
      width={440}
      actions={
        <>
          <Button variant="secondary" onClick={onCancel}>
            No
          </Button>
          <Button onClick={onConfirm}>Yes</Button>
        </>
      }
    >
      <p>The devices not saved as a tag are dropped. Enter confirms, Escape goes back.</p>
    </Dialog>
  );
}
