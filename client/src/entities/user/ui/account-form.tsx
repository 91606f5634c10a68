import { useUnit } from 'effector-react';
import { useEffect, useId, useMemo } from 'react';
import { FieldError, FormTextField, SwitchButton, TickToggle } from '../../../shared/ui';
import type { AccountFormModel } from '../account-form';
import styles from './account-form.module.css';

/** The password is never sent to the browser: the form shows that one is set, as the spec's masked field. */
const MASKED_PASSWORD = '••••••••';
const IMAGE_TYPES = 'image/png,image/jpeg,image/gif,image/webp';

const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]?.toUpperCase() ?? '')
    .join('') || '?';

/** A chosen file as an image URL for as long as it is shown. */
function usePreview(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}

/**
 * The account fields of Request detail, Edit Account and Account Settings (spec section 2): profile
 * image upload, name, masked password, company, email, phone, user type, the Email/Phone notification
 * ticks and, with `switches`, Weekly Report and Daily Notification. Read-only until the model edits.
 */
export function AccountForm({ model, idPrefix }: { model: AccountFormModel; idPrefix: string }) {
  const [account, draft, editing, image, removeImage, errors] = useUnit([
    model.$account,
    model.$draft,
    model.$editing,
    model.$image,
    model.$removeImage,
    model.$fieldErrors,
  ]);
  const [change, choose, remove] = useUnit([model.fieldChanged, model.imageChosen, model.imageRemoved]);
  const preview = usePreview(image);
  const fileId = useId();
  const imageErrorId = useId();
  if (!account || !draft) return null;
  const shown = preview ?? (removeImage ? null : account.profile_url);
  const readOnly = !editing;

  return (
    <div className={styles.form} data-testid={`${idPrefix}-form`} data-editing={editing}>
      <div className={styles.imageRow}>
        <span className={styles.avatar} aria-hidden="true">
          {shown ? (
            <img src={shown} alt="" width={72} height={72} />
          ) : (
            <span className={styles.initials}>{initialsOf(draft.username || account.email)}</span>
          )}
        </span>
        <div className={styles.imageActions}>
          {editing ? (
            <>
              {/* The label is the button: keyboard users reach the real file input, which stays visually hidden. */}
              <input
                id={fileId}
                className={`${styles.fileInput} visually-hidden`}
                type="file"
                accept={IMAGE_TYPES}
                aria-describedby={errors.image ? imageErrorId : undefined}
                onChange={(e) => {
                  const file = e.currentTarget.files?.[0];
                  if (file) choose(file);
                  e.currentTarget.value = '';
                }}
              />
              <label htmlFor={fileId} className={styles.upload}>
                Upload profile image
              </label>
              {shown ? (
                <button type="button" className={styles.removeImage} onClick={() => remove()}>
                  Remove image
                </button>
              ) : null}
            </>
          ) : (
            <span className={styles.imageCaption}>Profile image</span>
          )}
          <FieldError id={imageErrorId}>{errors.image}</FieldError>
        </div>
      </div>

      <div className={styles.grid}>
        <FormTextField
          label="Name"
          value={draft.username}
          readOnly={readOnly}
          error={errors.username}
          autoComplete="off"
          onChange={(e) => change({ username: e.currentTarget.value })}
        />
        <FormTextField label="Password" type="password" value={MASKED_PASSWORD} readOnly autoComplete="off" />
        <FormTextField
          label="Company"
          value={draft.company}
          readOnly={readOnly}
          error={errors.company}
          autoComplete="off"
          onChange={(e) => change({ company: e.currentTarget.value })}
        />
        <FormTextField label="Email" type="email" value={account.email} readOnly />
        <FormTextField
          label="Phone"
          type="tel"
          value={draft.phone}
          readOnly={readOnly}
          error={errors.phone}
          autoComplete="off"
          onChange={(e) => change({ phone: e.currentTarget.value })}
        />
        <FormTextField label="User Type" value={account.type} readOnly data-testid={`${idPrefix}-type`} />
      </div>

      <fieldset className={styles.group}>
        <legend className={styles.legend}>Notification</legend>
        <div className={styles.ticks}>
          <span className={styles.tick}>
            <TickToggle
              pressed={draft.notifyEmail}
              label="Email notification"
              disabled={readOnly}
              onClick={() => change({ notifyEmail: !draft.notifyEmail })}
            />
            <span aria-hidden="true">Email</span>
          </span>
          <span className={styles.tick}>
            <TickToggle
              pressed={draft.notifyPhone}
              label="Phone notification"
              disabled={readOnly}
              onClick={() => change({ notifyPhone: !draft.notifyPhone })}
            />
            <span aria-hidden="true">Phone</span>
          </span>
        </div>
      </fieldset>

      {model.switches ? (
        <fieldset className={styles.group}>
          <legend className={styles.legend}>Report mails</legend>
          <SwitchButton
            pressed={draft.notifyWeeklyReport}
            dimWhenOff={false}
            disabled={readOnly}
            onClick={() => change({ notifyWeeklyReport: !draft.notifyWeeklyReport })}
          >
            Weekly Report
          </SwitchButton>
          <SwitchButton
            pressed={draft.notifyDailyDispensation}
            dimWhenOff={false}
            disabled={readOnly}
            onClick={() => change({ notifyDailyDispensation: !draft.notifyDailyDispensation })}
          >
            Daily Notification
          </SwitchButton>
        </fieldset>
      ) : null}
    </div>
  );
}
