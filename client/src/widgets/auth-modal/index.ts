export { AuthModal } from './ui/auth-modal';
