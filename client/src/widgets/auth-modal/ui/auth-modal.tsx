import { useId, useState } from 'react';
import { ForgotPasswordForm } from '../../../features/forgot-password';
import { SignInForm, type SignInCallbacks } from '../../../features/sign-in';
import { LogoMark, tabPanelProps, Tabs, type TabItem } from '../../../shared/ui';
import styles from './auth-modal.module.css';

type AuthTab = 'sign-in' | 'sign-up';

const TABS: readonly TabItem<AuthTab>[] = [
  { key: 'sign-in', label: 'SIGN IN' },
  { key: 'sign-up', label: 'SIGN UP', disabledReason: 'Sign up is not open yet.' },
];

export type AuthModalProps = SignInCallbacks;

/**
 * The login card: SIGN IN / SIGN UP tabs over the sign-in form, which 'Forgot Password?' swaps for the
 * reset request. SIGN UP is shown but disabled until its form exists.
 */
export function AuthModal({ onSignedIn, onDeactivated }: AuthModalProps) {
  const [tab, setTab] = useState<AuthTab>('sign-in');
  // The email travels between the two views, so switching never loses what was typed.
  const [view, setView] = useState<{ name: 'sign-in' | 'forgot'; email: string }>({ name: 'sign-in', email: '' });
  const idPrefix = useId();
  const titleId = useId();

  return (
    <section className={styles.card} aria-labelledby={titleId}>
      <header className={styles.brand}>
        <span className={styles.logo}>
          <LogoMark size={22} />
        </span>
        <div>
          <h1 id={titleId} className={styles.name}>
            Fleet Portal
          </h1>
          <p className={styles.tagline}>Dispenser fleet monitoring</p>
        </div>
      </header>
      <div className={styles.tabs}>
        <Tabs items={TABS} selected={tab} onSelect={setTab} label="Account" idPrefix={idPrefix} />
      </div>
      <div className={styles.panel} {...tabPanelProps(idPrefix, tab)}>
        {view.name === 'sign-in' ? (
          <SignInForm
            initialEmail={view.email}
            onSignedIn={onSignedIn}
            onDeactivated={onDeactivated}
            onForgotPassword={(email) => setView({ name: 'forgot', email })}
          />
        ) : (
          <ForgotPasswordForm initialEmail={view.email} onBack={(email) => setView({ name: 'sign-in', email })} />
        )}
      </div>
    </section>
  );
}
