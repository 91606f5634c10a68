import { useUnit } from 'effector-react';
import { useId } from 'react';
import { ForgotPasswordForm } from '../../../features/forgot-password';
import { ResetPasswordForm } from '../../../features/reset-password';
import { SignInForm } from '../../../features/sign-in';
import { SignUpFormView } from '../../../features/sign-up';
import { LogoMark, tabPanelProps, Tabs, type TabItem } from '../../../shared/ui';
import {
  $authView,
  $signInMode,
  authTabSelected,
  forgotPasswordClosed,
  forgotPasswordOpened,
  resetPasswordClosed,
  signUpClosed,
} from '../model';
import styles from './auth-modal.module.css';

type AuthTab = 'sign_in' | 'sign_up';

const TABS: readonly TabItem<AuthTab>[] = [
  { key: 'sign_in', label: 'SIGN IN' },
  { key: 'sign_up', label: 'SIGN UP' },
];

/** The auth modal: SIGN IN / SIGN UP tabs with a sliding highlight, or the reset-password view. */
export function AuthModal() {
  const [view, mode] = useUnit([$authView, $signInMode]);
  const [selectTab, openForgot, closeForgot, closeSignUp, closeReset] = useUnit([
    authTabSelected,
    forgotPasswordOpened,
    forgotPasswordClosed,
    signUpClosed,
    resetPasswordClosed,
  ]);
  const idPrefix = useId();
  const titleId = useId();
  const tab: AuthTab = view === 'sign_up' ? 'sign_up' : 'sign_in';

  return (
    <section className={styles.card} aria-labelledby={titleId} data-view={view}>
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
      {view === 'reset_password' ? (
        <div className={styles.panel}>
          <ResetPasswordForm onCancel={closeReset} />
        </div>
      ) : (
        <>
          <div className={styles.tabs}>
            <Tabs items={TABS} selected={tab} onSelect={selectTab} label="Account" idPrefix={idPrefix} />
          </div>
          <div className={styles.panel} {...tabPanelProps(idPrefix, tab)}>
            {view === 'sign_up' ? (
              <SignUpFormView onBack={closeSignUp} />
            ) : mode === 'forgot' ? (
              <ForgotPasswordForm onBack={closeForgot} />
            ) : (
              <SignInForm onForgotPassword={openForgot} />
            )}
          </div>
        </>
      )}
    </section>
  );
}
