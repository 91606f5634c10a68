/** Reports (spec section 7: PDF/XLSX files, e-mailed reports): reports.routes.ts -> reports.service.ts -> reports.repository.ts; report-mail.ts renders them for the mail jobs. */
export { reportsRoutes } from './reports.routes.ts';
export { reportBuilder } from './reports.service.ts';
export { reportsRepository, type ReportDeviceRow } from './reports.repository.ts';
export { reportRenderer } from './report-mail.ts';
