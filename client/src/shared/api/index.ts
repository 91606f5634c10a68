export { http, httpBlob, HttpError, segment, type HttpOptions } from './http';
export { clearToken, readToken, saveToken, TOKEN_COOKIE } from './token';
export { apiAuthFailed, createApiFx } from './create-api-fx';
export { failureMessage, fieldMessages, GENERIC_FAILURE, serverReason } from './failure';
export { nearestPlace, nearestPlaceText } from './nearest-place';
