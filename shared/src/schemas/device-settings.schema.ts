import { z } from 'zod';

/**
 * The answers of a device's settings reads and writes (GET /api/v1/pumpSetting, PUT /api/v1/editPumpSetting,
 * GET and POST /api/v1/rentalV2): declared once here for the endpoint contract (api/devices.ts), the answer
 * check of the integration tests and the client's types.
 */

/** A pump setting: steps fixed at 300/s and 30/ml; pump_mode 1-8 from ml_per_shot (null when it is not one of them). */
export const pumpSettingAnswerSchema = z.object({
  steps_per_second: z.number(),
  steps_per_ml: z.number(),
  ml_per_shot: z.number(),
  pump_mode: z.number().int().nullable(),
  steps_per_second2: z.number(),
  steps_per_ml2: z.number(),
  ml_per_shot2: z.number(),
  pump_mode2: z.number().int().nullable(),
  vandalism_max_shots: z.number().int(),
  vandalism_interval: z.number().int(),
});
export type PumpSetting = z.infer<typeof pumpSettingAnswerSchema>;

/** A device's rental plan and daily timer (all null, day_count 0, when it has none); times are HH:MM. */
export const rentalAnswerSchema = z.object({
  start_date: z.string().nullable(),
  end_date: z.string().nullable(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
  pump_2_start_time: z.string().nullable(),
  pump_2_end_time: z.string().nullable(),
  day_count: z.number().int(),
});
export type Rental = z.infer<typeof rentalAnswerSchema>;

/** POST /api/v1/rentalV2's answer: the plan saved on each selected device. */
export const rentalSavedSchema = z.object({
  detail: z.string(),
  rentals: z.array(rentalAnswerSchema.extend({ serial: z.string() })),
});
export type RentalSaved = z.infer<typeof rentalSavedSchema>;
