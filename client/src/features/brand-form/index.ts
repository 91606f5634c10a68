export { BrandFormDialog } from './ui/brand-form-dialog';
export { $canManageBrands, brandAddOpened, brandDetailOpened, brandSaved } from './model';
