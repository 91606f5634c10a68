import {
  type Bill,
  formatNumber,
  formatUsd,
  INVOICE_OVERDUE_DEACTIVATION_DAYS,
  type Plan,
  planPriceText,
  plural,
  PRICE_TBA,
} from '@fleet/shared';
import { useUnit } from 'effector-react';
import { useEffect } from 'react';
import { formatDay } from '../../../entities/batch';
import {
  Button,
  CardHead,
  CardTitle,
  ChevronIcon,
  DataTable,
  LinkButton,
  SectionTitle,
  StateMessage,
  StatusCard,
  StatusCardHead,
  StatusPill,
  type DataColumn,
} from '../../../shared/ui';
import { $user } from '../../../entities/session';
import { CHECKOUT_PLANS, deactivationNote, OTHER_PLANS, type ActiveSubscription } from '../lib/subscriptions-lib';
import {
  $activeSubscriptions,
  $billsStatus,
  $canCheckout,
  $canMarkPaid,
  $checkout,
  $editing,
  $markPaidError,
  $markPaidPending,
  $openPlan,
  $pendingBills,
  $selection,
  $summary,
  $summaryTotal,
  $unsubscribed,
  $unsubscribedStatus,
  checkoutClicked,
  checkoutDismissed,
  deviceToggled,
  editClicked,
  markPaidClicked,
  planAllToggled,
  planToggled,
  saveClicked,
  subscriptionsOpened,
  subscriptionsRetried,
} from '../model';
import styles from './subscriptions.module.css';

/** Active Subscriptions: the plan names its row; the count and the price line up on the right. */
const ACTIVE_COLUMNS: DataColumn<ActiveSubscription>[] = [
  { key: 'name', header: 'Name', rowHeader: true, cell: (s) => s.name },
  { key: 'devices', header: 'No. of Devices', align: 'end', cell: (s) => s.deviceCount },
  {
    key: 'price',
    header: 'Price / month / device',
    align: 'end',
    cell: (s) =>
      s.plan
        ? s.plan.priceUsd === null
          ? PRICE_TBA
          : s.plan.pricing === 'flat'
            ? `${formatUsd(s.plan.priceUsd)} flat`
            : formatUsd(s.plan.priceUsd)
        : '—',
  },
];

const day = (d: string | null) => (d ? formatDay(d) : '—');
const devicesText = (n: number) => plural(n, 'device');

/**
 * SUBSCRIPTIONS tab (spec sections 2 and 4): 'Manage your Subscriptions', read-only until Edit; in editing
 * the caller chooses devices not yet on a plan, the summary adds them up, Save returns to read-only (the
 * choice stays in the summary), Check out issues the bills. Prices come from the shared catalogue.
 */
export function SubscriptionsTab() {
  const [status, editing, opened, retry, edit, save] = useUnit([
    $billsStatus,
    $editing,
    subscriptionsOpened,
    subscriptionsRetried,
    editClicked,
    saveClicked,
  ]);
  useEffect(() => {
    opened();
  }, [opened]);

  return (
    <div className={styles.tab} data-testid="subscriptions">
      <CardHead>
        <CardTitle>Manage your Subscriptions</CardTitle>
        <Button
          variant={editing ? 'success' : 'secondary'}
          className={styles.modeButton}
          onClick={() => (editing ? save() : edit())}
          aria-pressed={editing}
        >
          {editing ? 'Save' : 'Edit'}
        </Button>
      </CardHead>
      {status === 'loading' ? (
        <StateMessage status="loading">Loading subscriptions…</StateMessage>
      ) : status === 'failed' ? (
        <StateMessage status="failed" onRetry={() => retry()}>
          The subscriptions could not be loaded.
        </StateMessage>
      ) : (
        <>
          <ActiveSection />
          <PendingSection />
        </>
      )}
      {editing ? <ChooseDevices /> : null}
      <Summary />
      <OtherSection />
    </div>
  );
}

function ActiveSection() {
  const active = useUnit($activeSubscriptions);
  return (
    <section className={styles.section} aria-labelledby="subs-active">
      <SectionTitle id="subs-active">Active Subscriptions</SectionTitle>
      <DataTable
        columns={ACTIVE_COLUMNS}
        rows={active}
        rowKey={(a) => a.path}
        rowProps={(a) => ({ 'data-plan': a.path })}
        empty="No active subscriptions."
      />
    </section>
  );
}

function PendingSection() {
  const [bills, canMarkPaid, user] = useUnit([$pendingBills, $canMarkPaid, $user]);
  return (
    <section className={styles.section} aria-labelledby="subs-pending">
      <SectionTitle id="subs-pending">Pending Subscriptions</SectionTitle>
      {bills.length === 0 ? (
        <p className={styles.none}>No bills waiting for payment.</p>
      ) : (
        <ul className={styles.bills}>
          {bills.map((b) => (
            <li key={b.id}>
              <PendingBill bill={b} canMarkPaid={canMarkPaid} showPayer={canMarkPaid || b.payer.id !== user?.id} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function PendingBill({ bill, canMarkPaid, showPayer }: { bill: Bill; canMarkPaid: boolean; showPayer: boolean }) {
  const [pending, error, markPaid] = useUnit([$markPaidPending, $markPaidError, markPaidClicked]);
  const overdue = bill.status === 'OVERDUE';
  const note = deactivationNote(bill, new Date().toISOString().slice(0, 10));
  const titleId = `bill-${bill.id}`;
  return (
    <StatusCard className={styles.bill} data-status={bill.status} data-bill={bill.bill_uid} aria-labelledby={titleId}>
      <StatusCardHead>
        <span id={titleId} className={styles.billName}>
          {bill.name}
        </span>
        <StatusPill>{overdue ? 'Overdue' : 'Pending'}</StatusPill>
      </StatusCardHead>
      <p className={styles.billMeta}>
        {devicesText(bill.device_count)} · {formatUsd(bill.total_usd)} / month
        {showPayer ? ` · billed to ${bill.payer.company || bill.payer.name}` : ''}
      </p>
      <p className={styles.billMeta}>
        Due {day(bill.due_date)}
        {note ? (
          <span className={styles.warn}>
            {' '}
            · {note.since ? `account deactivated since ${day(note.day)}` : `account deactivated from ${day(note.day)} if unpaid`}
          </span>
        ) : null}
      </p>
      {canMarkPaid ? (
        <div className={styles.billActions}>
          <Button
            variant="secondary"
            className={styles.small}
            loading={pending === bill.bill_uid}
            onClick={() => markPaid(bill.bill_uid)}
            aria-label={`Mark paid: ${bill.name}, ${bill.bill_uid}`}
          >
            Mark paid
          </Button>
          {error?.billUid === bill.bill_uid ? (
            <span className={styles.error} role="alert">
              {error.message}
            </span>
          ) : null}
        </div>
      ) : null}
    </StatusCard>
  );
}

function OtherSection() {
  return (
    <section className={styles.section} aria-labelledby="subs-other">
      <SectionTitle id="subs-other">Other Subscriptions</SectionTitle>
      <ul className={styles.others}>
        {OTHER_PLANS.map((p) => (
          <li key={p.path} className={styles.other} data-plan={p.path}>
            <span className={styles.otherName}>
              {p.name}
              {p.isNew ? <span className={styles.newBadge}>new</span> : null}
            </span>
            <span className={styles.otherPrice}>{planPriceText(p)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Editing: each priced plan opens the caller's devices not yet on it. */
function ChooseDevices() {
  const [status, retry] = useUnit([$unsubscribedStatus, subscriptionsRetried]);
  return (
    <section className={styles.section} aria-labelledby="subs-choose">
      <SectionTitle id="subs-choose">Add devices to a plan</SectionTitle>
      {status === 'loading' ? (
        <StateMessage status="loading">Loading devices…</StateMessage>
      ) : status === 'failed' ? (
        <StateMessage status="failed" onRetry={() => retry()}>
          The devices could not be loaded.
        </StateMessage>
      ) : (
        <ul className={styles.plans}>
          {CHECKOUT_PLANS.map((p) => (
            <li key={p.path}>
              <PlanChooser plan={p} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function PlanChooser({ plan }: { plan: Plan }) {
  const [offered, selection, open, toggle, toggleDevice, toggleAll] = useUnit([
    $unsubscribed,
    $selection,
    $openPlan,
    planToggled,
    deviceToggled,
    planAllToggled,
  ]);
  const devices = offered[plan.path] ?? [];
  const chosen = new Set(selection[plan.path] ?? []);
  const expanded = open === plan.path;
  const listId = `plan-${plan.path}-devices`;
  return (
    <div className={styles.plan} data-plan={plan.path}>
      <button
        type="button"
        className={styles.planButton}
        aria-expanded={expanded}
        aria-controls={listId}
        onClick={() => toggle(plan.path)}
        disabled={devices.length === 0}
      >
        <span className={styles.planName}>
          {plan.name}
          <span className={styles.planPrice}>{planPriceText(plan)}</span>
        </span>
        <span className={styles.planCount}>
          {devices.length === 0 ? 'All devices on this plan' : `${formatNumber(chosen.size)} of ${devicesText(devices.length)}`}
        </span>
        {devices.length ? <ChevronIcon size={16} className={expanded ? styles.chevronUp : undefined} /> : null}
      </button>
      {expanded ? (
        <div id={listId} className={styles.deviceList}>
          <label className={styles.device}>
            <input type="checkbox" checked={chosen.size === devices.length} onChange={() => toggleAll(plan.path)} />
            <span className={styles.selectAll}>Select all</span>
          </label>
          {devices.map((d) => (
            <label key={d.serial} className={styles.device}>
              <input
                type="checkbox"
                checked={chosen.has(d.serial)}
                onChange={() => toggleDevice({ path: plan.path, serial: d.serial })}
              />
              <span className={styles.deviceText}>
                <span>{d.label || 'NoName'}</span>
                <span className={styles.serial}>{d.serial}</span>
              </span>
            </label>
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** The summary and checkout: shown while devices are chosen, and with the checkout's result. */
function Summary() {
  const [lines, total, canCheckout, checkout, onCheckout, dismiss] = useUnit([
    $summary,
    $summaryTotal,
    $canCheckout,
    $checkout,
    checkoutClicked,
    checkoutDismissed,
  ]);
  if (lines.length === 0 && checkout.status !== 'done') return null;
  return (
    <section
      className={[styles.section, styles.summary].join(' ')}
      aria-labelledby="subs-summary"
      data-testid="subscriptions-summary"
    >
      <SectionTitle id="subs-summary">Summary</SectionTitle>
      {lines.length ? (
        <>
          <ul className={styles.lines}>
            {lines.map((l) => (
              <li key={l.plan.path} className={styles.line}>
                <span>
                  {l.plan.name}
                  <span className={styles.lineMeta}>
                    {l.plan.pricing === 'flat'
                      ? `${devicesText(l.serials.length)} · ${formatUsd(l.plan.priceUsd!)} flat`
                      : `${devicesText(l.serials.length)} × ${formatUsd(l.plan.priceUsd!)}`}
                  </span>
                  {l.tooMany ? (
                    <span className={styles.error} role="alert">
                      {l.plan.name} covers at most {l.plan.maxDevices} devices per bill.
                    </span>
                  ) : null}
                </span>
                <span className={styles.lineTotal}>{formatUsd(l.totalUsd)}</span>
              </li>
            ))}
          </ul>
          <p className={styles.total}>
            <span>Total per month</span>
            <strong data-testid="summary-total">{formatUsd(total)}</strong>
          </p>
          <Button block loading={checkout.status === 'pending'} disabled={!canCheckout} onClick={() => onCheckout()}>
            Check out
          </Button>
        </>
      ) : null}
      {checkout.status === 'failed' ? (
        <p className={styles.error} role="alert">
          Checkout failed: {checkout.message} Check out again to retry; bills already issued are not issued twice.
        </p>
      ) : null}
      {checkout.status === 'done' ? (
        <div className={styles.done} role="status">
          <p>
            {checkout.issued.length === 1 ? 'Bill issued' : `${plural(checkout.issued.length, 'bill')} issued`}, due{' '}
            {day(checkout.issued[0]?.due_date ?? null)}. Pay the invoice by its due date; an invoice unpaid{' '}
            {INVOICE_OVERDUE_DEACTIVATION_DAYS} days after it deactivates the account.
          </p>
          <LinkButton onClick={() => dismiss()}>OK</LinkButton>
        </div>
      ) : null}
    </section>
  );
}
