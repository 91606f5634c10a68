/** Printable QR labels of devices (labels.routes.ts; the PDF in labels-pdf.ts). */
export { labelsRoutes } from './labels.routes.ts';
export { labelCell } from './labels-pdf.ts';
