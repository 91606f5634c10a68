import type { ClientUser, UserAccount } from '@fleet/shared';
import { useUnit } from 'effector-react';
import {
  $clientUsers,
  $clientUsersStatus,
  $pendingUsers,
  $pendingUsersStatus,
  clientUsersRequested,
  pendingUsersRequested,
  type ListStatus,
} from '../../../entities/user';
import { editAccountClicked, viewDetailClicked } from '../../../features/user-approval';
import {
  Button,
  CardHead,
  CardTitle,
  DataTable,
  dataTableStateClass,
  LinkButton,
  Spinner,
  type DataColumn,
} from '../../../shared/ui';
import { $managesSignUps } from '../model';
import styles from './sign-up-lists.module.css';

/** Loading, failed (with Try again) or empty: what a list says instead of rows. */
function ListState({ status, empty, onRetry }: { status: ListStatus; empty: string; onRetry: () => void }) {
  if (status === 'loading' || status === 'idle')
    return (
      <p className={dataTableStateClass} role="status">
        <Spinner size={16} /> Loading...
      </p>
    );
  if (status === 'failed')
    return (
      <p className={dataTableStateClass} role="alert">
        Something went wrong. <LinkButton onClick={onRetry}>Try again</LinkButton>
      </p>
    );
  return <p className={dataTableStateClass}>{empty}</p>;
}

const actionsHeader = <span className="visually-hidden">Actions</span>;

function requestColumns(view: (u: UserAccount) => void): DataColumn<UserAccount>[] {
  return [
    {
      key: 'name',
      header: 'Name',
      cell: (u) => (
        <>
          <span className={styles.name}>{u.name}</span>
          <span className={styles.sub}>{u.email}</span>
        </>
      ),
    },
    { key: 'company', header: 'Company', cell: (u) => u.company },
    { key: 'type', header: 'Type', cell: (u) => u.type },
    {
      key: 'actions',
      header: actionsHeader,
      align: 'end',
      cell: (u) => (
        <Button variant="secondary" className={styles.small} aria-label={`View Detail of ${u.email}`} onClick={() => view(u)}>
          View Detail
        </Button>
      ),
    },
  ];
}

function clientColumns(edit: (c: ClientUser) => void): DataColumn<ClientUser>[] {
  return [
    {
      key: 'client',
      header: 'Client',
      cell: (c) => (
        <>
          <span className={styles.name}>{c.company || c.name}</span>
          <span className={styles.sub}>
            {c.name} · {c.email}
          </span>
        </>
      ),
    },
    {
      key: 'brands',
      header: 'Brand List',
      cell: (c) => (c.brands.length ? c.brands.map((b) => b.name).join(', ') : <span className={styles.sub}>No brand</span>),
    },
    {
      key: 'actions',
      header: actionsHeader,
      align: 'end',
      cell: (c) => (
        <Button variant="secondary" className={styles.small} aria-label={`Edit Account of ${c.email}`} onClick={() => edit(c)}>
          Edit Account
        </Button>
      ),
    },
  ];
}

/**
 * Sign Up Request: the sign-up requests (name, company, type, View Detail) and the client list
 * (Client, Brand List, Edit Account; Disable Account, Delete Account and Remote Control are not built
 * and look disabled, once above the list rather than on every row, so the rows stay readable at 820 px). A market-partner user manages neither (spec section 6) and is told so.
 */
export function SignUpLists() {
  const [manages, pending, pendingStatus, clients, clientStatus] = useUnit([
    $managesSignUps,
    $pendingUsers,
    $pendingUsersStatus,
    $clientUsers,
    $clientUsersStatus,
  ]);
  const [view, editClient, reloadPending, reloadClients] = useUnit([
    viewDetailClicked,
    editAccountClicked,
    pendingUsersRequested,
    clientUsersRequested,
  ]);

  if (!manages) {
    return (
      <section aria-labelledby="sign-up-title" className={styles.section}>
        <CardTitle id="sign-up-title">Sign Up Request</CardTitle>
        <p className={dataTableStateClass}>
          Sign-up requests and client accounts are managed by your distributor. Your own account is under Account Settings.
        </p>
      </section>
    );
  }

  return (
    <div className={styles.lists}>
      <section aria-labelledby="sign-up-title" className={styles.section} data-testid="sign-up-requests">
        <CardTitle id="sign-up-title">Sign Up Request</CardTitle>
        <DataTable
          aria-label="Sign Up Request"
          columns={requestColumns(view)}
          rows={pending}
          rowKey={(u) => u.id}
          rowProps={(u) => ({ 'data-email': u.email })}
          maxHeight={300}
          empty={<ListState status={pendingStatus} empty="No sign-up requests." onRetry={() => reloadPending()} />}
        />
      </section>

      <section aria-labelledby="clients-title" className={styles.section} data-testid="client-list">
        <CardHead>
          <CardTitle id="clients-title">Clients</CardTitle>
          {/* Not built yet: they look disabled, stay in the tab order (with a reason) and do nothing. */}
          <div className={styles.toolbar} role="group" aria-label="Client account actions">
            {['Disable Account', 'Delete Account', 'Remote Control'].map((label) => (
              <button key={label} type="button" className={styles.disabledAction} aria-disabled="true" title="Not available yet">
                {label}
              </button>
            ))}
          </div>
        </CardHead>
        <DataTable
          aria-label="Clients"
          columns={clientColumns(editClient)}
          rows={clients}
          rowKey={(c) => c.id}
          rowProps={(c) => ({ 'data-email': c.email })}
          maxHeight={300}
          empty={<ListState status={clientStatus} empty="No client accounts yet." onRetry={() => reloadClients()} />}
        />
      </section>
    </div>
  );
}
