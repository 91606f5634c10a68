import { useUnit } from 'effector-react';
import { $accessLevel } from '../../../entities/session';
import { InfoPage } from '../../../shared/ui';

/** /exclusive-management: market-partner user management (hidden for market-partner users). */
export function ExclusiveManagementPage() {
  const level = useUnit($accessLevel);
  if (level === 'market-partner') {
    return <InfoPage title="Market partner management" lead="This page is not available for market-partner accounts." />;
  }
  return (
    <InfoPage title="Market partner management" lead="Market-partner companies, their users and the devices they may see.">
      <ul>
        <li>Market-partner companies, grouped by company name</li>
        <li>Their users and whether each account is active</li>
        <li>The exclusive devices each company is tied to, to add or remove</li>
      </ul>
    </InfoPage>
  );
}
