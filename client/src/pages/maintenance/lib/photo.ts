import { MAINTENANCE_PHOTO_MAX_BYTES } from '@fleet/shared';

/** The longest side a record's photo keeps: enough to read a label or see a broken part on a phone. */
const MAX_SIDE = 1600;

/**
 * A photo taken on the phone, resized there before it is kept or sent: drawn on a canvas with its longest
 * side at most 1600 px and encoded as JPEG, the quality stepped down (then the size) until it is at most
 * 1 MB. Answers the base64 of the JPEG (without the data: prefix) and its size in bytes.
 */
export async function resizePhoto(file: Blob): Promise<{ base64: string; bytes: number; width: number; height: number }> {
  const bitmap = await createImageBitmap(file);
  try {
    let scale = Math.min(1, MAX_SIDE / Math.max(bitmap.width, bitmap.height));
    for (;;) {
      const width = Math.max(1, Math.round(bitmap.width * scale));
      const height = Math.max(1, Math.round(bitmap.height * scale));
      const canvas = document.createElement('canvas');
      canvas.width = width;
      canvas.height = height;
      canvas.getContext('2d')!.drawImage(bitmap, 0, 0, width, height);
      for (const quality of [0.85, 0.7, 0.55]) {
        const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
        if (blob && blob.size <= MAINTENANCE_PHOTO_MAX_BYTES) {
          return { base64: await base64Of(blob), bytes: blob.size, width, height };
        }
      }
      scale *= 0.75;
    }
  } finally {
    bitmap.close();
  }
}

async function base64Of(blob: Blob): Promise<string> {
  const url = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('The photo could not be read.'));
    reader.readAsDataURL(blob);
  });
  return url.slice(url.indexOf(',') + 1);
}
