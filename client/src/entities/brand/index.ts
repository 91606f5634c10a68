export { $brands, $brandsStatus, brandsCleared, brandsRequested, fetchBrandsFx, sendForm } from './model';
