export { fetchCurrentUser, logout } from './api/session-api';
export { useSession, type SessionState } from './model/use-session';
