export {
  $connected,
  connectRequested,
  deviceChangedReceived,
  disconnectRequested,
  overviewChangedReceived,
  smsLogAppendedReceived,
  sessionEndedReceived,
  socketConnected,
  socketDisconnected,
  subscribeFx,
  unsubscribeFx,
} from './model';
