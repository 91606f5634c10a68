import { devicesApi } from '@fleet/shared';
import { callBlob } from '../../shared/api';

/** Which labels: named serials, every device of a site, or every device of a brand. */
export type LabelsQuery = { serials: string[] } | { site: number } | { brand: number };

/** The label PDF, with the session's token (a plain link could not send it). */
export const fetchLabels = (q: LabelsQuery, token?: string): Promise<Blob> =>
  callBlob(devicesApi.labels, { query: 'serials' in q ? { serials: q.serials.join(',') } : q, ...(token ? { token } : {}) });
