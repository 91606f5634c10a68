import { BuildingIcon, TruckIcon } from '../../../shared/ui';
import type { AccountKind } from '../model';
import styles from './sign-in-form.module.css';

const KINDS: { kind: AccountKind; label: string; Icon: typeof BuildingIcon }[] = [
  { kind: 'company', label: 'Company', Icon: BuildingIcon },
  { kind: 'distributor', label: 'Distributor', Icon: TruckIcon },
];

/** 'Company' and 'Distributor': display only, the one matching the looked-up role is lit. */
export function AccountKindIndicators({ active }: { active: AccountKind | null }) {
  return (
    <div className={styles.kinds} role="group" aria-label="Account type">
      {KINDS.map(({ kind, label, Icon }) => (
        <span
          key={kind}
          className={styles.kind}
          data-kind={kind}
          data-active={active === kind}
          aria-current={active === kind ? 'true' : undefined}
        >
          <Icon size={18} />
          {label}
        </span>
      ))}
    </div>
  );
}
