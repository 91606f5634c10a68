import { addDays, devicesApi, type Rental } from '@fleet/shared';
import { call, createApiFx } from '../../shared/api';

/**
 * The rental plan of the device panel's Device Subscription section (spec section 2): read a device's plan
 * (GET /api/v1/rentalV2/:serial) and save one on one or several devices (POST /api/v1/rentalV2), with the
 * form's shape and its success text. The panel's form (widgets/device-panel/setup.model.ts) and control
 * dialog (controls.model.ts) compose them.
 */
export type { Rental };
export type RentalWrite = {
  serials: string[];
  startDate: string;
  endDate: string;
  startTime: string | null;
  endTime: string | null;
  pump2StartTime: string | null;
  pump2EndTime: string | null;
};

export const RENTAL_SAVED = 'New plan has been successfully set';

export const fetchRentalFx = createApiFx((serial: string) => call(devicesApi.rental, { params: { serial } }));
export const saveRentalFx = createApiFx((input: RentalWrite) => call(devicesApi.setRental, { body: input }));

export type RentalForm = {
  startDate: string;
  endDate: string;
  startTime: string | null;
  endTime: string | null;
  pump2StartTime: string | null;
  pump2EndTime: string | null;
};
/** A new plan starts on the site's today and runs 30 days (the site's calendar, not the browser's). */
export const rentalFormOf = (r: Rental | null, today: string): RentalForm => ({
  startDate: r?.start_date ?? today,
  endDate: r?.end_date ?? addDays(today, 30),
  startTime: r?.start_time?.slice(0, 5) ?? null,
  endTime: r?.end_time?.slice(0, 5) ?? null,
  pump2StartTime: r?.pump_2_start_time?.slice(0, 5) ?? null,
  pump2EndTime: r?.pump_2_end_time?.slice(0, 5) ?? null,
});
