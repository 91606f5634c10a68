export { AuthModal, type AuthModalProps } from './ui/auth-modal';
