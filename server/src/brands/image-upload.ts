import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { RequestHandler } from 'express';
import multer from 'multer';
import { BRAND_IMAGE_MAX_BYTES, BRAND_MESSAGES } from '@fleet/shared';
import { ApiError } from '../lib/errors.ts';

export type ImageKind = { ext: 'png' | 'jpg' | 'gif' | 'webp'; mime: string };

/**
 * The image type read from the bytes themselves. The filename and the declared mimetype are the
 * sender's word and are ignored: an SVG (which can carry script) or a text file renamed .png must
 * never be stored and served back as an image.
 */
export function sniffImage(bytes: Uint8Array): ImageKind | undefined {
  const starts = (sig: number[], at = 0) => bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);
  const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { ext: 'png', mime: 'image/png' };
  if (starts([0xff, 0xd8, 0xff])) return { ext: 'jpg', mime: 'image/jpeg' };
  if (starts(ascii('GIF87a')) || starts(ascii('GIF89a'))) return { ext: 'gif', mime: 'image/gif' };
  if (starts(ascii('RIFF')) && starts(ascii('WEBP'), 8)) return { ext: 'webp', mime: 'image/webp' };
  return undefined;
}

/**
 * Where brand logos live. Only a local-disk store exists today; the interface is this small so an
 * S3-compatible store (put = PutObject, remove = DeleteObject, URL = bucket/CDN address) can replace
 * it without the service changing.
 */
export interface ImageStore {
  /** Stores the bytes under a fresh name and answers the URL clients load them from. */
  put(bytes: Uint8Array, kind: ImageKind): Promise<string>;
  /**
   * Forgets an image this store created. URLs it did not create (seeded demo logos, external
   * addresses, anything outside its folder) are left alone, so a shared or foreign file is never lost.
   */
  remove(url: string | null | undefined): Promise<void>;
}

/** Names this store gives files: 32 hex characters, so its own files are told apart from seeded ones. */
const OWN_FILE = /^[0-9a-f]{32}\.(png|jpg|gif|webp)$/;

/** Files under `<uploadsDir>/<folder>`, served by the app as `/uploads/<folder>/<file>`. */
export function localImageStore(uploadsDir: string, folder = 'brands'): ImageStore {
  const dir = path.join(uploadsDir, folder);
  const prefix = `/uploads/${folder}/`;
  return {
    async put(bytes, kind) {
      await fs.mkdir(dir, { recursive: true });
      const file = `${crypto.randomBytes(16).toString('hex')}.${kind.ext}`;
      // 'wx': a name collision (practically impossible) fails instead of overwriting another logo.
      await fs.writeFile(path.join(dir, file), bytes, { flag: 'wx' });
      return prefix + file;
    },
    async remove(url) {
      if (!url?.startsWith(prefix)) return;
      const file = url.slice(prefix.length);
      if (!OWN_FILE.test(file)) return;
      await fs.rm(path.join(dir, file), { force: true });
    },
  };
}

/** An uploaded file held in memory until the service has validated everything else. */
export type UploadedImage = { bytes: Uint8Array };
/** An upload whose content is a known image type. */
export type CheckedImage = { bytes: Uint8Array; kind: ImageKind };

/**
 * The image of a multipart body, checked by its content (see sniffImage). Problems go into `errors`
 * so the caller answers them together with its text fields' in one 400. An empty file counts as none.
 */
export function checkImage(
  image: UploadedImage | undefined,
  opts: { required: boolean; errors: Record<string, string[]>; field?: string },
): CheckedImage | undefined {
  const field = opts.field ?? 'image';
  if (!image || image.bytes.length === 0) {
    if (opts.required) opts.errors[field] = [BRAND_MESSAGES.imageRequired];
    return undefined;
  }
  const kind = sniffImage(image.bytes);
  if (!kind) opts.errors[field] = [BRAND_MESSAGES.imageType];
  return kind ? { bytes: image.bytes, kind } : undefined;
}

/**
 * Stores the image, runs the write, and takes the image back if the write does not happen, so a
 * refused or failed write leaves no orphan file. `forget` is the caller's logged removal.
 */
export async function withStoredImage<T>(
  images: ImageStore,
  forget: (url: string | undefined) => Promise<void>,
  image: CheckedImage | undefined,
  write: (url: string | undefined) => Promise<T>,
): Promise<{ url: string | undefined; result: T }> {
  const url = image ? await images.put(image.bytes, image.kind) : undefined;
  try {
    return { url, result: await write(url) };
  } catch (err) {
    await forget(url);
    throw err;
  }
}

const upload = multer({
  storage: multer.memoryStorage(),
  limits: { fileSize: BRAND_IMAGE_MAX_BYTES, files: 1, fields: 10, fieldSize: 16 * 1024, parts: 12 },
});

/**
 * Reads an optional single `image` file and text fields from a multipart body (other content types
 * pass through untouched). Every parser failure is the sender's (oversize, extra files, a truncated
 * or malformed body), so each becomes a 4xx with a message, never a 500.
 */
export function imageUpload(field = 'image'): RequestHandler {
  const single = upload.single(field);
  return (req, res, next) => {
    single(req, res, (err?: unknown) => {
      if (!err) return next();
      next(uploadError(err, field));
    });
  };
}

export function uploadError(err: unknown, field = 'image'): ApiError {
  if (err instanceof multer.MulterError) {
    switch (err.code) {
      case 'LIMIT_FILE_SIZE':
        return new ApiError(413, { [field]: [BRAND_MESSAGES.imageTooLarge] });
      case 'LIMIT_FILE_COUNT':
      case 'LIMIT_UNEXPECTED_FILE':
        return new ApiError(400, { [field]: [`Send one file, in the '${field}' field.`] });
      case 'LIMIT_FIELD_VALUE':
        return err.field
          ? new ApiError(400, { [err.field]: ['Field value too long.'] })
          : ApiError.badRequest('Field value too long.');
      default:
        return ApiError.badRequest(`Invalid multipart body: ${err.message}.`);
    }
  }
  return ApiError.badRequest('Malformed multipart body.');
}

/** The uploaded file of this request, if any. */
export function uploadedImage(req: { file?: Express.Multer.File | undefined }): UploadedImage | undefined {
  return req.file ? { bytes: req.file.buffer } : undefined;
}
