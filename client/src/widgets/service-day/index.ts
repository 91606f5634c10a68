export { ServiceDayView } from './ui/service-day-view';
