export { $brands, $brandsStatus, $clientChoices, brandsCleared, brandsRequested, clientChoices, fetchBrandsFx, sendForm, type ClientChoice } from './model';
