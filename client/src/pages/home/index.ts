export { HomePage, type HomePageProps } from './ui/home-page';
