/** Brands (brands.routes.ts -> brands.service.ts -> brands.repository.ts) and the image upload checks users reuse for profile images. */
export { brandsRoutes } from './brands.routes.ts';
export { brandsRepository } from './brands.repository.ts';
export {
  checkImage,
  imageUpload,
  localImageStore,
  uploadedImage,
  withStoredImage,
  type ImageStore,
  type UploadedImage,
} from './image-upload.ts';
