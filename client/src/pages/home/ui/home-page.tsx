import type { CurrentUser } from '@fleet/shared';
import { useId } from 'react';
import { SignOutButton } from '../../../features/sign-out';
import { MapBackdrop } from '../../../shared/ui';
import { DeviceSummary } from './device-summary';
import styles from './home-page.module.css';

export type HomePageProps = { user: CurrentUser };

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('') || '?';

/** The signed-in shell (until the map screen arrives): who is signed in, what they can see, Logout. */
export function HomePage({ user }: HomePageProps) {
  const name = user.username || user.email;
  const nameId = useId();
  return (
    <MapBackdrop>
      <main className={styles.main}>
        <article className={styles.card} aria-labelledby={nameId}>
          <header className={styles.header}>
            {user.profile_url ? (
              <img className={styles.avatar} src={user.profile_url} alt="" width={56} height={56} />
            ) : (
              <span className={styles.avatar} aria-hidden="true">
                {initials(name)}
              </span>
            )}
            <div className={styles.identity}>
              <p className={styles.greeting}>Signed in as</p>
              <h1 id={nameId} className={styles.name}>
                {name}
              </h1>
              <p className={styles.email}>{user.email}</p>
            </div>
          </header>
          <dl className={styles.facts}>
            <dt>Company</dt>
            <dd data-testid="user-company">{user.company || '—'}</dd>
            <dt>Role</dt>
            <dd data-testid="user-role">
              <span className={styles.badge}>{user.role}</span>
              {user.user_type === 'market-partner' ? (
                <span className={`${styles.badge} ${styles.partner}`}>market-partner</span>
              ) : null}
            </dd>
          </dl>
          <DeviceSummary />
          <footer className={styles.footer}>
            <SignOutButton />
          </footer>
        </article>
      </main>
    </MapBackdrop>
  );
}
