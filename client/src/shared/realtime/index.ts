export {
  $connected,
  connectRequested,
  deviceChangedReceived,
  disconnectRequested,
  overviewChangedReceived,
  smsLogAppendedReceived,
  sessionEndedReceived,
  servicePlanProgressedReceived,
  socketConnected,
  socketDisconnected,
  subscribeFx,
  unsubscribeFx,
} from './model';
