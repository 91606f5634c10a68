export {
  acknowledgeIncidentFx,
  commentIncidentFx,
  fetchIncidentFx,
  fetchIncidentsFx,
  fetchInboxFx,
  fetchNotificationRulesFx,
  markReadFx,
  resolveIncidentFx,
  saveNotificationRulesFx,
  type IncidentFilter,
  type Inbox,
} from './model';
export { incidentPlace, incidentsZone, SEVERITY_LABEL, siteOptions, STATE_LABEL } from './lib';
