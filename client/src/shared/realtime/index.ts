export {
  $connected,
  connectRequested,
  deviceChangedReceived,
  disconnectRequested,
  incidentNotifiedReceived,
  overviewChangedReceived,
  pinsChangedReceived,
  smsLogAppendedReceived,
  sessionEndedReceived,
  servicePlanProgressedReceived,
  socketConnected,
  socketDisconnected,
  subscribeFx,
  unsubscribeFx,
} from './model';
export type { IncidentNotifiedPayload } from './model';
