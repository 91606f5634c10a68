import { useUnit } from 'effector-react';
import { Fragment, type ReactNode } from 'react';
import { Button } from '../../../shared/ui';
import type { AccountFormModel } from '../account-form';
import { AccountForm } from './account-form';
import styles from './account-form.module.css';

/**
 * An account form with what every one of them answers: Enter or Save saves, the failure is said
 * (role alert), and while editing the buttons are Cancel and Save; otherwise the caller's `actions`.
 */
export function AccountFormFrame({
  model,
  idPrefix,
  actions,
  onCancel,
  children,
}: {
  model: AccountFormModel;
  idPrefix: string;
  /** The buttons while read-only (Reject / Edit Request / Activate Account; Back / Logout / Edit Account). */
  actions: ReactNode;
  /** Cancel while editing; by default back to what was shown. */
  onCancel?: () => void;
  /** Shown between the form and the buttons (a saved notice). */
  children?: ReactNode;
}) {
  const [editing, saving, error] = useUnit([model.$editing, model.$saving, model.$error]);
  const [cancel, save] = useUnit([model.editCancelled, model.saveClicked]);
  return (
    <form
      className={styles.frame}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <AccountForm model={model} idPrefix={idPrefix} />
      {error ? (
        <p className={styles.failure} role="alert" data-testid={`${idPrefix}-error`}>
          {error}
        </p>
      ) : null}
      {children}
      <div className={styles.actions}>
        {/* Keyed: React must not reuse the clicked Edit button as Save, or the click would submit the form. */}
        {editing ? (
          <Fragment key="editing">
            <Button variant="secondary" disabled={saving} onClick={() => (onCancel ? onCancel() : cancel())}>
              Cancel
            </Button>
            <Button type="submit" loading={saving}>
              Save
            </Button>
          </Fragment>
        ) : (
          <Fragment key="reading">{actions}</Fragment>
        )}
      </div>
    </form>
  );
}
