export { incidentsOpened } from './model';
export { IncidentsDialog } from './ui/incidents-dialog';
