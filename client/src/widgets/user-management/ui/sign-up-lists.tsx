import { useUnit } from 'effector-react';
import { $clientUsers, $clientUsersStatus, $pendingUsers, $pendingUsersStatus, clientUsersRequested, pendingUsersRequested, type ListStatus } from '../../../entities/user';
import { editAccountClicked, viewDetailClicked } from '../../../features/user-approval';
import { Button, LinkButton, Spinner } from '../../../shared/ui';
import { $managesSignUps } from '../model';
import styles from './sign-up-lists.module.css';

/** Loading, failed (with Try again) or empty: what a list says instead of rows. */
function ListState({ status, empty, onRetry }: { status: ListStatus; empty: string; onRetry: () => void }) {
  if (status === 'loading' || status === 'idle')
    return (
      <p className={styles.state} role="status">
        <Spinner size={16} /> Loading...
      </p>
    );
  if (status === 'failed')
    return (
      <p className={styles.state} role="alert">
        Something went wrong. <LinkButton onClick={onRetry}>Try again</LinkButton>
      </p>
    );
  return <p className={styles.state}>{empty}</p>;
}

/**
 * Sign Up Request: the sign-up requests (name, company, type, View Detail) and the client list
 * (Client, Brand List, Edit Account; Disable Account, Delete Account and Remote Control are not built
 * and look disabled, once above the list rather than on every row, so the rows stay readable at 820 px). A market-partner user manages neither (spec section 6) and is told so.
 */
export function SignUpLists() {
  const [manages, pending, pendingStatus, clients, clientStatus] = useUnit([$managesSignUps, $pendingUsers, $pendingUsersStatus, $clientUsers, $clientUsersStatus]);
  const [view, editClient, reloadPending, reloadClients] = useUnit([viewDetailClicked, editAccountClicked, pendingUsersRequested, clientUsersRequested]);

  if (!manages) {
    return (
      <section aria-labelledby="sign-up-title" className={styles.section}>
        <h3 id="sign-up-title" className={styles.heading}>
          Sign Up Request
        </h3>
        <p className={styles.state}>Sign-up requests and client accounts are managed by your distributor. Your own account is under Account Settings.</p>
      </section>
    );
  }

  return (
    <div className={styles.lists}>
      <section aria-labelledby="sign-up-title" className={styles.section} data-testid="sign-up-requests">
        <h3 id="sign-up-title" className={styles.heading}>
          Sign Up Request
        </h3>
        {pending.length === 0 ? (
          <ListState status={pendingStatus} empty="No sign-up requests." onRetry={() => reloadPending()} />
        ) : (
          <div className={styles.scroll}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Company</th>
                  <th scope="col">Type</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {pending.map((u) => (
                  <tr key={u.id} data-email={u.email}>
                    <td>
                      <span className={styles.name}>{u.name}</span>
                      <span className={styles.sub}>{u.email}</span>
                    </td>
                    <td>{u.company}</td>
                    <td>{u.type}</td>
                    <td className={styles.actionCell}>
                      <Button variant="secondary" className={styles.small} aria-label={`View Detail of ${u.email}`} onClick={() => view(u)}>
                        View Detail
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <section aria-labelledby="clients-title" className={styles.section} data-testid="client-list">
        <div className={styles.headingRow}>
          <h3 id="clients-title" className={styles.heading}>
            Clients
          </h3>
          {/* Not built yet: they look disabled, stay in the tab order (with a reason) and do nothing. */}
          <div className={styles.toolbar} role="group" aria-label="Client account actions">
            {['Disable Account', 'Delete Account', 'Remote Control'].map((label) => (
              <button key={label} type="button" className={styles.disabledAction} aria-disabled="true" title="Not available yet">
                {label}
              </button>
            ))}
          </div>
        </div>
        {clients.length === 0 ? (
          <ListState status={clientStatus} empty="No client accounts yet." onRetry={() => reloadClients()} />
        ) : (
          <div className={styles.scroll}>
            <table className={styles.table}>
              <thead>
                <tr>
                  <th scope="col">Client</th>
                  <th scope="col">Brand List</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {clients.map((c) => (
                  <tr key={c.id} data-email={c.email}>
                    <td>
                      <span className={styles.name}>{c.company || c.name}</span>
                      <span className={styles.sub}>
                        {c.name} · {c.email}
                      </span>
                    </td>
                    <td>{c.brands.length ? c.brands.map((b) => b.name).join(', ') : <span className={styles.sub}>No brand</span>}</td>
                    <td className={styles.actionCell}>
                      <Button variant="secondary" className={styles.small} aria-label={`Edit Account of ${c.email}`} onClick={() => editClient(c)}>
                        Edit Account
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
