import { useUnit } from 'effector-react';
import { firstShowing } from '../../../shared/ui';
import { panelPartsLoaded, type PanelDevice } from '../model';
import { BatterySection } from './battery-section';
import { DashboardSection } from './dashboard-section';
import { ManagementSection } from './management-section';
import { SimSection } from './sim-section';
import { SubscriptionSection } from './subscription-section';

/** The first showing after this chunk loaded tells its models what is already open (model.ts panelPartsLoaded). */
const useFirstShowing = firstShowing();

/**
 * The panel's sections with the models only they use (setup.model and telemetry.model, with the telemetry
 * rules), in a chunk of their own downloaded when a device panel first opens (ui/device-panel), not
 * evaluated with the map page on every sign-in (issue 16). The controls' model stays with the panel: its result dialog shows
 * whatever the panel shows, and its reads and writes are answered by events, not by stores.
 */
export default function SectionView({ section, device, operator }: { section: string; device: PanelDevice; operator: boolean }) {
  const loaded = useUnit(panelPartsLoaded);
  useFirstShowing(() => loaded());
  switch (section) {
    case 'management':
      return operator ? <ManagementSection device={device} /> : null;
    case 'subscription':
      return operator ? <SubscriptionSection device={device} /> : null;
    case 'sim':
      return operator ? <SimSection device={device} /> : null;
    case 'battery':
      return operator ? <BatterySection device={device} /> : null;
    default:
      return <DashboardSection device={device} operator={operator} />;
  }
}
