import { formatNumber, plural } from '@fleet/shared';
import type { PartnerUser } from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useEffect, useId } from 'react';
import { $accessLevel } from '../../../entities/session';
import { Button, Dialog, InfoPage, PageFrame, pageText, ResultPopup, TextField } from '../../../shared/ui';
import {
  $companySearch,
  $deviceIndex,
  $pickerChosen,
  $pickerError,
  $pickerLoading,
  $pickerMatches,
  $pickerPending,
  $pickerQuery,
  $pickerTotal,
  $pickerUser,
  $removePending,
  $removing,
  $selectedCompany,
  $status,
  $visibleCompanies,
  companySearched,
  companySelected,
  pageMounted,
  pickerClosed,
  pickerOpened,
  pickerScrolledToEnd,
  pickerSearched,
  pickerSubmitted,
  pickerToggled,
  removeCancelled,
  removeConfirmed,
  removeRequested,
  resultPopup,
  retryClicked,
} from '../model';
import styles from './exclusive-management-page.module.css';

const TITLE = 'Market partner management';

/** /exclusive-management: market-partner companies, their users and exclusive devices (distributors only). */
export function ExclusiveManagementPage() {
  const level = useUnit($accessLevel);
  useEffect(() => {
    document.title = TITLE;
  }, []);
  if (level === 'market-partner')
    return <InfoPage title={TITLE} lead="This page is not available for market-partner accounts." backHref="/" />;
  if (level !== 'distributor')
    return (
      <InfoPage
        title={TITLE}
        lead="This page is for distributors: ask a distributor to change which devices a market partner sees."
        backHref="/"
      />
    );
  return <Management />;
}

function Management() {
  const [status, mounted, retry] = useUnit([$status, pageMounted, retryClicked]);
  useEffect(() => {
    mounted();
  }, [mounted]);
  return (
    <PageFrame
      title={TITLE}
      lead="Market-partner companies and their users; each user sees exactly the devices listed under it, on the map, in lists and live."
      actions={
        <a className={pageText.back} href="/">
          Back to the map
        </a>
      }
    >
      {status === 'loading' || status === 'idle' ? (
        <p role="status" className={pageText.meta}>
          Loading market partners…
        </p>
      ) : null}
      {status === 'failed' ? (
        <p role="alert" className={pageText.error}>
          The market partners could not be loaded.{' '}
          <Button variant="secondary" onClick={() => retry()}>
            Try again
          </Button>
        </p>
      ) : null}
      {status === 'ready' ? (
        <div className={styles.columns}>
          <CompanyList />
          <CompanyDetail />
        </div>
      ) : null}
      <DevicePicker />
      <RemoveConfirm />
      <Result />
    </PageFrame>
  );
}

function CompanyList() {
  const [companies, selected, search, searched, select] = useUnit([
    $visibleCompanies,
    $selectedCompany,
    $companySearch,
    companySearched,
    companySelected,
  ]);
  return (
    <nav className={styles.companies} aria-label="Market-partner companies">
      <TextField
        label="Search companies"
        type="search"
        value={search}
        onChange={(e) => searched(e.target.value)}
        placeholder="Company"
      />
      {companies.length === 0 ? (
        <p className={pageText.meta}>{search ? 'No company matches.' : 'No market-partner company yet.'}</p>
      ) : null}
      <ul className={styles.companyList}>
        {companies.map((c) => (
          <li key={c.key}>
            <button
              type="button"
              className={[styles.company, selected?.key === c.key ? styles.companyActive : ''].join(' ')}
              aria-current={selected?.key === c.key ? 'true' : undefined}
              onClick={() => select(c.key)}
            >
              <span className={styles.companyName}>{c.name}</span>
              <span className={styles.companyMeta}>
                {plural(c.users.length, 'user')} · {plural(c.deviceCount, 'device')}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function CompanyDetail() {
  const company = useUnit($selectedCompany);
  if (!company) return null;
  return (
    <section className={styles.detail} aria-labelledby="company-title">
      <h2 id="company-title" className={pageText.sectionTitle}>
        {company.name}
      </h2>
      {company.users.map((u) => (
        <UserCard key={u.id} user={u} />
      ))}
    </section>
  );
}

function UserCard({ user }: { user: PartnerUser }) {
  const [index, open, remove] = useUnit([$deviceIndex, pickerOpened, removeRequested]);
  const titleId = useId();
  return (
    <article className={styles.user} aria-labelledby={titleId} data-testid="partner-user" data-email={user.email}>
      <div className={styles.userHead}>
        <div>
          <h3 id={titleId} className={styles.userName}>
            {user.name}
          </h3>
          <p className={pageText.meta}>
            {user.email}
            {user.activated ? '' : ' · not active'}
          </p>
        </div>
        <Button onClick={() => open(user.email)} aria-label={`Add devices for ${user.name}`}>
          Add devices
        </Button>
      </div>
      {user.exclusive_device_serials.length === 0 ? (
        <p className={pageText.meta}>No exclusive device: this user sees no device.</p>
      ) : (
        <table className={pageText.table} aria-label={`Devices exclusive to ${user.name}`}>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">S/N</th>
              <th scope="col">Address</th>
              <th scope="col">
                <span className={styles.srOnly}>Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {user.exclusive_device_serials.map((serial) => {
              const d = index.get(serial);
              return (
                <tr key={serial}>
                  <td>{d?.label || 'NoName'}</td>
                  <td>{serial}</td>
                  <td>{d?.address || 'Not placed'}</td>
                  <td className={styles.actionCell}>
                    <Button
                      variant="secondary"
                      onClick={() => remove({ email: user.email, serial })}
                      aria-label={`Remove ${serial} from ${user.name}`}
                    >
                      Remove
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </article>
  );
}

function DevicePicker() {
  const [user, query, shown, total, loading, chosen, error, pending, close, search, toggle, submit, more] = useUnit([
    $pickerUser,
    $pickerQuery,
    $pickerMatches,
    $pickerTotal,
    $pickerLoading,
    $pickerChosen,
    $pickerError,
    $pickerPending,
    pickerClosed,
    pickerSearched,
    pickerToggled,
    pickerSubmitted,
    pickerScrolledToEnd,
  ]);
  return (
    <Dialog
      open={user !== null}
      onClose={() => close()}
      title={`Add devices for ${user?.name ?? ''}`}
      width={680}
      actions={
        <>
          <Button variant="secondary" onClick={() => close()}>
            Cancel
          </Button>
          <Button onClick={() => submit()} loading={pending} disabled={chosen.length === 0}>
            {chosen.length ? `Add ${plural(chosen.length, 'device')}` : 'Add devices'}
          </Button>
        </>
      }
    >
      <TextField
        label="Search devices"
        type="search"
        value={query}
        onChange={(e) => search(e.target.value)}
        placeholder="Name, serial or address"
        autoFocus
      />
      <p className={pageText.meta} role="status">
        {/* The rows are the server's pages of the search; the count is the server's (the user's own left out). */}
        {total === null || loading
          ? 'Searching devices…'
          : total > shown.length
            ? `Showing ${formatNumber(shown.length)} of ${plural(total, 'device')}: narrow the search.`
            : plural(shown.length, 'device')}
        {chosen.length ? ` · ${formatNumber(chosen.length)} chosen` : ''}
      </p>
      <ul
        className={styles.pickerList}
        aria-label="Devices"
        onScroll={(e) => {
          const el = e.currentTarget;
          if (el.scrollTop + 2 * el.clientHeight >= el.scrollHeight) more();
        }}
      >
        {shown.map((d) => (
          <li key={d.serial}>
            <label className={styles.pickerRow}>
              <input type="checkbox" checked={chosen.includes(d.serial)} onChange={() => toggle(d.serial)} />
              <span className={styles.pickerText}>
                <span className={styles.pickerName}>
                  {d.label || 'NoName'} <span className={styles.serial}>{d.serial}</span>
                </span>
                <span className={styles.pickerAddress}>{d.address || 'Not placed'}</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      {error ? (
        <p role="alert" className={pageText.error}>
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}

function RemoveConfirm() {
  const [removing, pending, cancel, confirm] = useUnit([$removing, $removePending, removeCancelled, removeConfirmed]);
  return (
    <Dialog
      open={removing !== null}
      onClose={() => (pending ? undefined : cancel())}
      title={`Remove ${removing?.serial ?? ''}?`}
      actions={
        <>
          <Button variant="secondary" onClick={() => cancel()} disabled={pending}>
            No
          </Button>
          <Button variant="danger" onClick={() => confirm()} loading={pending}>
            Yes, remove
          </Button>
        </>
      }
    >
      <p>{removing?.email} will no longer see this device, from now on.</p>
    </Dialog>
  );
}

function Result() {
  const [result, close] = useUnit([resultPopup.$result, resultPopup.closed]);
  return <ResultPopup result={result} onClose={() => close()} testId="exclusive-result" />;
}
