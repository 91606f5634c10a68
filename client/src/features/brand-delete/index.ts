export { BrandDeleteDialogs } from './ui/brand-delete-dialogs';
export { brandDeleted, brandDeleteRequested } from './model';
