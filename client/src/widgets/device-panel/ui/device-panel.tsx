import { LabelsActions } from '../../../features/device-labels';
import { useUnit } from 'effector-react';
import { Suspense, useEffect, useRef, useState } from 'react';
import { $accessLevel } from '../../../entities/session';
import { $canManageDevices, editDeviceOpened } from '../../../features/device-form';
import { $now } from '../../../shared/lib';
import {
  ArrowLeftIcon,
  Button,
  CardTitle,
  ChevronIcon,
  Dialog,
  InfoIcon,
  LinkButton,
  LoadBoundary,
  Spinner,
  useLazyPart,
} from '../../../shared/ui';
import { PANEL_MENU, formatDeviceClock, menuBadgeWarnings, panelSiteName } from '../lib/panel-lib';
import {
  $collapsed,
  $groupDevices,
  $multiSelected,
  $panelDevice,
  $panelSerial,
  $panelStatus,
  $section,
  collapseToggled,
  multiSelectCardClicked,
  panelClosed,
  panelDeviceSelected,
  sectionSelected,
  type PanelDevice,
} from '../model';
import { ControlDialog } from './control-dialog';
import { DeviceCards } from './device-cards';
import sectionStyles from './panel-section.module.css';
import styles from './device-panel.module.css';

// The sections with their models: a chunk downloaded when a panel first opens (sections-part).
const loadSections = () => import('./sections-part');

/**
 * The device management panel (spec section 2): a full-screen overlay over the map for one site group.
 * Header with the site address and the device clock in the site's time zone; left, the brand and the
 * side menu; centre, the section; right, the group's devices by number. The collapse arrow folds it to
 * its header so the map shows again; the back arrow closes it.
 */
export function DevicePanel() {
  const [serial, device, status, section, collapsed, group, level, now, chosen] = useUnit([
    $panelSerial,
    $panelDevice,
    $panelStatus,
    $section,
    $collapsed,
    $groupDevices,
    $accessLevel,
    $now,
    $multiSelected,
  ]);
  const [close, toggleCollapse, select, selectDevice, pick] = useUnit([
    panelClosed,
    collapseToggled,
    sectionSelected,
    panelDeviceSelected,
    multiSelectCardClicked,
  ]);
  const [infoOpen, setInfoOpen] = useState(false);
  const backRef = useRef<HTMLButtonElement>(null);
  const operator = level === 'distributor' || level === 'market-partner';

  // Focus moves into the panel when it opens, so keyboard users start at its first control.
  const open = serial !== null;
  useEffect(() => {
    if (open) backRef.current?.focus();
    // The sections' code downloads while the device is read (a failure shows where the section would be).
    if (open) loadSections().catch(() => undefined);
  }, [open]);

  if (!serial) return null;
  // Unknown, or outside the caller's scope: one clear state, no brand, no live menus, nothing more asked.
  const missing = status === 'missing';
  const warnings = device?.warning_lists ?? [];
  const site = device?.label || 'NoName';

  return (
    <section
      className={[styles.panel, collapsed ? styles.collapsed : ''].join(' ')}
      aria-label="Device management"
      data-testid="device-panel"
      data-serial={serial}
      data-collapsed={collapsed || undefined}
    >
      <header className={styles.header}>
        <button
          ref={backRef}
          type="button"
          className={styles.iconButton}
          onClick={() => close()}
          aria-label="Back to the map"
          title="Back"
        >
          <ArrowLeftIcon />
        </button>
        <div className={styles.headerText}>
          <h2 className={styles.address}>
            {device?.address || (missing ? 'Device not found' : status === 'failed' ? 'Device unavailable' : 'Loading…')}
          </h2>
          {device ? (
            <p className={styles.deviceClock} aria-label="Device time">
              <time>{formatDeviceClock(now, device.timezone_id)}</time>
              <span className={styles.zone}>{device.timezone_id ?? 'UTC'}</span>
            </p>
          ) : null}
        </div>
        <button
          type="button"
          className={styles.iconButton}
          onClick={() => toggleCollapse()}
          aria-expanded={!collapsed}
          aria-label={collapsed ? 'Expand the panel' : 'Collapse the panel'}
          title={collapsed ? 'Expand' : 'Collapse'}
        >
          <ChevronIcon className={collapsed ? undefined : styles.flip} />
        </button>
      </header>

      {collapsed ? null : missing ? (
        // Nothing of a device to show: no brand, no menu, no device column; the way back.
        <div className={[styles.body, styles.alone].join(' ')}>
          <div className={styles.content}>
            <div className={styles.notFound} data-testid="device-not-found">
              <CardTitle>Device not found</CardTitle>
              <p>
                No device <strong>{serial}</strong> is in your fleet: the serial may be mistyped, the device removed, or it
                belongs to another account.
              </p>
              <Button onClick={() => close()}>Back to the map</Button>
            </div>
          </div>
        </div>
      ) : (
        <div className={styles.body}>
          <aside className={styles.left}>
            {device ? (
              <div className={styles.brand}>
                {device.brand_image_url ? (
                  <img className={styles.brandImage} src={device.brand_image_url} alt="" />
                ) : (
                  <span className={styles.brandImage} aria-hidden="true" />
                )}
                <div className={styles.brandText}>
                  <span className={styles.brandName}>{device.brand_name ?? 'None'}</span>
                  <span className={styles.siteName} title={site}>
                    {panelSiteName(site)}
                  </span>
                </div>
              </div>
            ) : null}
            <Button variant="secondary" onClick={() => setInfoOpen(true)} disabled={!device}>
              <InfoIcon size={18} /> More Info
            </Button>
            <nav aria-label="Device sections">
              <ul className={styles.menu}>
                {PANEL_MENU.map((item) => {
                  const unavailable = !device || item.disabled || (item.operatorsOnly && !operator);
                  const current = item.key === section;
                  const badge = menuBadgeWarnings(item.key, warnings);
                  return (
                    <li key={item.key}>
                      <button
                        type="button"
                        className={styles.menuItem}
                        aria-current={current ? 'page' : undefined}
                        aria-disabled={unavailable || undefined}
                        title={
                          item.disabled
                            ? 'Not available yet'
                            : !device
                              ? undefined
                              : unavailable
                                ? 'Not available for clients'
                                : undefined
                        }
                        onClick={() => {
                          if (!unavailable) select(item.key as typeof section);
                        }}
                      >
                        <span>{item.label}</span>
                        {badge.length ? (
                          <span
                            className={styles.badge}
                            role="img"
                            aria-label={`Warning: ${badge.join(', ')}`}
                            title={badge.join(', ')}
                          />
                        ) : null}
                      </button>
                    </li>
                  );
                })}
              </ul>
            </nav>
            {/* The controls' result shows over this column, never over the chart or the pending list it reports on. */}
            <ControlDialog />
          </aside>

          <div className={styles.content}>
            {device ? (
              <SectionView section={section} device={device} operator={operator} />
            ) : status === 'failed' ? (
              <p className={sectionStyles.empty}>This device could not be loaded.</p>
            ) : (
              <p className={sectionStyles.empty}>
                <Spinner size={18} /> Loading device…
              </p>
            )}
          </div>

          <aside className={styles.right} aria-label="Devices at this site">
            <DeviceCards
              devices={group}
              current={device}
              chosen={section === 'subscription' ? chosen : null}
              onSelect={(s) => (chosen && section === 'subscription' ? pick(s) : s !== serial && selectDevice(s))}
            />
          </aside>
        </div>
      )}

      {device ? <DeviceInfoDialog open={infoOpen} device={device} onClose={() => setInfoOpen(false)} /> : null}
    </section>
  );
}

/** The section shown, from the sections' chunk: Loading device… while it arrives, and Try again if it could not. */
function SectionView({ section, device, operator }: { section: string; device: PanelDevice; operator: boolean }) {
  const { Part, forget } = useLazyPart(loadSections);
  return (
    <LoadBoundary
      onRetry={forget}
      failure={(retry) => (
        <p className={sectionStyles.empty} role="alert">
          This device&apos;s sections could not be loaded. <LinkButton onClick={retry}>Try again</LinkButton>
        </p>
      )}
    >
      <Suspense
        fallback={
          <p className={sectionStyles.empty}>
            <Spinner size={18} /> Loading device…
          </p>
        }
      >
        <Part section={section} device={device} operator={operator} />
      </Suspense>
    </LoadBoundary>
  );
}

/** Device info (spec section 2; Escape closes): name, serial, brand, batches, software version. */
function DeviceInfoDialog({ open, device, onClose }: { open: boolean; device: PanelDevice; onClose: () => void }) {
  // Edit Machine: distributors only (spec section 6); clients and market partners see it disabled.
  const [canEdit, editMachine] = useUnit([$canManageDevices, editDeviceOpened]);
  const rows: [string, string][] = [
    ['Site/Event Name', device.label || 'NoName'],
    ['Serial Number', device.serial],
    ['Brand', device.brand_name ?? 'None'],
    ['Left Batch Number', device.batchNumber ?? 'None'],
    ['Right Batch Number', device.batch2Number ?? 'None'],
    ['Software Version', device.core_ver ?? 'None'],
  ];
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Device Info"
      actions={
        <>
          <Button
            variant="secondary"
            disabled={!canEdit}
            title={canEdit ? undefined : 'Only distributors can edit a machine'}
            onClick={() => {
              onClose();
              editMachine(device.serial);
            }}
          >
            Edit Machine
          </Button>
          <Button onClick={onClose}>Back</Button>
        </>
      }
    >
      <dl className={styles.infoList}>
        {rows.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <LabelsActions query={{ serials: [device.serial] }} name={device.serial} what={device.serial} />
    </Dialog>
  );
}
