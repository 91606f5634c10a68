import { InfoPage } from '../../../shared/ui';

export function NotFoundPage() {
  return <InfoPage title="Page not found" lead="There is nothing at this address." />;
}
