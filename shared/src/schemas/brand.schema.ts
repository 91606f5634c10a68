import { z } from 'zod';
import { MAX_CLIENTS_PER_BRAND } from '../constants.ts';
import { email, requiredText } from './common.ts';

/** Spelled as the spec (sections 5 and 8) and the existing client expect them. */
export const BRAND_MESSAGES = {
  nameRequired: '(Required)',
  imageRequired: 'Image Required',
  nameTaken: 'A brand with this name already exists.',
  imageType: 'Upload a PNG, JPEG, GIF or WebP image.',
  imageTooLarge: 'Image must be at most 2 MB.',
  tooManyClients: `A brand can be assigned to at most ${MAX_CLIENTS_PER_BRAND} clients.`,
  unknownClient: (email: string) => `Unknown client: ${email}`,
  noDevices: 'Select at least one device.',
  unknownDevice: (serial: string) => `Unknown device: ${serial}`,
  nothingToChange: 'Nothing to change.',
  notFound: 'No brand with this id.',
  sameTransferBrand: 'Choose a different brand to transfer the devices to.',
  deleted: 'Brand deleted',
} as const;

export const BRAND_NAME_MAX = 100;
/** Brand logos are small; the server refuses larger uploads before reading them whole. */
export const BRAND_IMAGE_MAX_BYTES = 2 * 1024 * 1024;

/** Database ids are PostgreSQL `integer`: anything larger would be a query error, not a 404. */
const PG_INT_MAX = 2_147_483_647;

/** A brand id in a JSON body. Strictly a number: the spec's client keeps ids as numbers. */
export const brandIdField = () =>
  z
    .number({
      error: (i) => (i.input === undefined || i.input === null ? 'This field is required.' : 'A valid integer is required.'),
    })
    .int({ error: 'A valid integer is required.' })
    .min(1, { error: 'A valid integer is required.' })
    .max(PG_INT_MAX, { error: 'A valid integer is required.' });

/** A brand id in a path: digits only; anything else cannot name a brand (the route answers 404). */
export const brandIdParamSchema = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number)
  .refine((n) => n <= PG_INT_MAX);

/** The brand name: the spec's '(Required)' for a missing or blank name, whatever the content type. */
export const brandName = () =>
  z
    .string({ error: (i) => (i.input === undefined || i.input === null ? BRAND_MESSAGES.nameRequired : 'Must be a string.') })
    .trim()
    .min(1, { error: BRAND_MESSAGES.nameRequired })
    .max(BRAND_NAME_MAX, { error: `Ensure this field has no more than ${BRAND_NAME_MAX} characters.` });

/** Text fields of POST /api/v1/addBrand (multipart); the `image` file is checked by its content. */
export const addBrandFieldsSchema = z.object({ name: brandName() });
export type AddBrandFields = z.infer<typeof addBrandFieldsSchema>;

/** Text fields of PUT /api/v1/brand/{id} (multipart): name and/or image, at least one. */
export const editBrandFieldsSchema = z.object({ name: brandName().optional() });
export type EditBrandFields = z.infer<typeof editBrandFieldsSchema>;

/** The multipart bodies as documented in OpenAPI (the file is binary). */
export const addBrandMultipartSchema = addBrandFieldsSchema.extend({
  image: z.file().describe('PNG, JPEG, GIF or WebP, at most 2 MB (checked by content)'),
});
export const editBrandMultipartSchema = z.object({
  name: brandName().optional(),
  image: z.file().describe('PNG, JPEG, GIF or WebP, at most 2 MB (checked by content)').optional(),
});

const unique = <T>(list: T[]) => [...new Set(list)];

/**
 * POST /api/v1/assignBrandToClient: replaces the brand's client set. Emails are lowercased and
 * duplicates collapsed before the limit is checked, so picking one client twice is not 'too many'.
 */
export const assignBrandToClientSchema = z.object({
  brandId: brandIdField(),
  clientEmails: z
    .array(email(), {
      error: (i) => (i.input === undefined || i.input === null ? 'This field is required.' : 'Must be a list of emails.'),
    })
    .transform(unique)
    .refine((list) => list.length <= MAX_CLIENTS_PER_BRAND, { error: BRAND_MESSAGES.tooManyClients }),
});
export type AssignBrandToClientInput = z.infer<typeof assignBrandToClientSchema>;

/** POST /api/v1/assignBrandToDevice: sets the brand of the listed devices (the 'Transfer' button). */
export const assignBrandToDeviceSchema = z.object({
  brandId: brandIdField(),
  deviceSerials: z
    .array(requiredText(64), {
      error: (i) => (i.input === undefined || i.input === null ? BRAND_MESSAGES.noDevices : 'Must be a list of serials.'),
    })
    .min(1, { error: BRAND_MESSAGES.noDevices })
    .max(10_000, { error: 'Ensure this list has no more than 10000 serials.' })
    .transform(unique),
});
export type AssignBrandToDeviceInput = z.infer<typeof assignBrandToDeviceSchema>;

/** POST /api/v1/deleteBrand/{id}: optional body; without a transfer brand the devices keep no brand. */
export const deleteBrandSchema = z.object({
  transferBrandId: brandIdField().nullable().optional(),
});
export type DeleteBrandInput = z.infer<typeof deleteBrandSchema>;

export const brandClientSchema = z.object({ id: z.number(), email: z.string(), name: z.string(), company: z.string() });

/** A brand as GET /api/v1/brand lists it (spec section 3: image and image_url carry the same URL). */
export const brandAnswerSchema = z.object({
  id: z.number(),
  name: z.string(),
  image: z.string().nullable(),
  image_url: z.string().nullable(),
  clients: z.array(brandClientSchema),
  deviceSerials: z.array(z.string()),
  device_count: z.number(),
});
export type BrandAnswer = z.infer<typeof brandAnswerSchema>;

export const deleteBrandAnswerSchema = z.object({ detail: z.literal(BRAND_MESSAGES.deleted), transferred: z.number() });
export type DeleteBrandAnswer = z.infer<typeof deleteBrandAnswerSchema>;
