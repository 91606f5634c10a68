export { DownloadDialog } from './ui/download-dialog';
export { reportDownloadOpened } from './model';
