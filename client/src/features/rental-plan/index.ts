export { fetchRentalFx, RENTAL_SAVED, rentalFormOf, saveRentalFx, type Rental, type RentalForm } from './model';
