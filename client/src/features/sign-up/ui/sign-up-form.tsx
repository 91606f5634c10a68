import { MESSAGES } from '@fleet/shared';
import { useUnit } from 'effector-react';
import type { FormEvent } from 'react';
import { BuildingIcon, Button, PasswordField, TextField, TickToggle, TruckIcon } from '../../../shared/ui';
import {
  $signUpBlank,
  $signUpButtonText,
  $signUpForm,
  $signUpPending,
  $signUpResult,
  notificationToggled,
  signUpFieldChanged,
  signUpSubmitted,
  type SignUpField,
} from '../model';
import styles from './sign-up-form.module.css';

export type SignUpFormProps = {
  /** 'Back' to the sign-in view. */
  onBack: () => void;
};

/** The SIGN UP view; required fields show 'Required' as their placeholder. */
export function SignUpForm({ onBack }: SignUpFormProps) {
  const [form, result, buttonText, pending, blank] = useUnit([
    $signUpForm,
    $signUpResult,
    $signUpButtonText,
    $signUpPending,
    $signUpBlank,
  ]);
  const [changed, toggled, submit] = useUnit([signUpFieldChanged, notificationToggled, signUpSubmitted]);
  const field = (name: SignUpField) => ({
    name,
    value: form[name],
    onChange: (e: { target: { value: string } }) => changed({ field: name, value: e.target.value }),
    // A required field left blank at the last Sign Up (the button names them all).
    'aria-invalid': blank.includes(name) || undefined,
  });
  const required = { placeholder: MESSAGES.required, 'aria-required': true } as const;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Sign up">
      <div className={styles.signUpAs}>
        <span className={styles.signUpAsLabel} id="sign-up-as">
          Sign Up as
        </span>
        <div className={styles.kinds} role="radiogroup" aria-labelledby="sign-up-as">
          <span
            className={styles.kind}
            role="radio"
            aria-checked="false"
            aria-disabled="true"
            title="Company accounts are created by a distributor"
          >
            <BuildingIcon size={18} />
            Company
          </span>
          <span className={styles.kind} role="radio" aria-checked="true" tabIndex={0} data-selected="true">
            <TruckIcon size={18} />
            Distributor
          </span>
        </div>
      </div>
      <div className={styles.pair}>
        <TextField label="Name" autoComplete="name" {...required} {...field('username')} />
        <TextField label="Company" autoComplete="organization" {...required} {...field('company')} />
      </div>
      <div className={styles.withTick}>
        <TextField
          className={styles.grow}
          label="Email"
          type="email"
          inputMode="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          {...required}
          {...field('email')}
        />
        <Notify label="Email notifications" pressed={form.isEnableNotificationEmail} onToggle={() => toggled('email')} />
      </div>
      <div className={styles.withTick}>
        <TextField
          className={styles.grow}
          label="Mobile Phone Number (optional)"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          {...field('phone')}
        />
        <Notify label="Phone notifications" pressed={form.isEnableNotificationPhone} onToggle={() => toggled('phone')} />
      </div>
      <PasswordField label="Password" autoComplete="new-password" {...required} {...field('password')} />
      <div role="status" aria-live="polite" className={styles.result}>
        <Button
          type="submit"
          block
          loading={pending}
          variant={result.status === 'success' ? 'success' : result.status === 'failure' ? 'danger' : 'primary'}
          data-result={result.status}
        >
          {buttonText}
        </Button>
      </div>
      <Button variant="secondary" block onClick={onBack}>
        Back
      </Button>
    </form>
  );
}

/** The notification tick beside a field, captioned like the field labels. */
function Notify({ label, pressed, onToggle }: { label: string; pressed: boolean; onToggle: () => void }) {
  return (
    <div className={styles.notify}>
      <span className={styles.notifyCaption} aria-hidden="true">
        Notify
      </span>
      <TickToggle label={label} pressed={pressed} onClick={onToggle} />
    </div>
  );
}
