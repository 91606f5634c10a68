/** QR labels of devices (GET /api/v1/deviceLabels): a PDF and the browser's print view of it. */
export { LabelsActions } from './ui/labels-actions';
