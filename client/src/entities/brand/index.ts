export { $brands, $brandsStatus, brandsCleared, brandsRequested, fetchBrandsFx } from './model';
