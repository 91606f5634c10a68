export { HttpError } from './http';
export { call, callBlob, callBody } from './call';
export { clearToken, readToken, saveToken } from './token';
export { apiAuthFailed, createApiFx } from './create-api-fx';
export { failureMessage, fieldMessages, GENERIC_FAILURE, serverReason } from './failure';
export { nearestPlace, nearestPlaceText } from './nearest-place';
