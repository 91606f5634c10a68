export { http, httpBlob, HttpError, segment } from './http';
export { call, callBlob } from './call';
export { clearToken, readToken, saveToken } from './token';
export { apiAuthFailed, createApiFx } from './create-api-fx';
export { failureMessage, fieldMessages, GENERIC_FAILURE, serverReason } from './failure';
export { nearestPlace, nearestPlaceText } from './nearest-place';
