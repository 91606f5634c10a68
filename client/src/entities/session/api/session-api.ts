import type { CurrentUser } from '@fleet/shared';
import { http } from '../../../shared/api';

/** GET /api/v1/user: the signed-in user behind the token cookie. */
export const fetchCurrentUser = (signal?: AbortSignal) => http<CurrentUser>('/api/v1/user', signal ? { signal } : {});

/** POST /auth/token/logout/: revokes the token on the server. */
export const logout = () => http<void>('/auth/token/logout/', { method: 'POST' });
