export { BrandFormDialog } from './ui/brand-form-dialog';
export { brandAddOpened, brandDetailOpened, brandSaved } from './model';
