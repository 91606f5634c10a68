import { httpBlob } from '../../shared/api';

/** Which labels: named serials, every device of a site, or every device of a brand. */
export type LabelsQuery = { serials: string[] } | { site: number } | { brand: number };

export const labelsPath = (q: LabelsQuery) =>
  '/api/v1/deviceLabels?' +
  ('serials' in q
    ? `serials=${q.serials.map(encodeURIComponent).join(',')}`
    : 'site' in q
      ? `site=${q.site}`
      : `brand=${q.brand}`);

/** The label PDF, with the session's token (a plain link could not send it). */
export const fetchLabels = (q: LabelsQuery, token?: string): Promise<Blob> => httpBlob(labelsPath(q), token ? { token } : {});
