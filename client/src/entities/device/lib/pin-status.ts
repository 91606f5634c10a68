import type { DeviceListItemShape } from '@fleet/shared';

/** The Active Pin filter's three kinds (spec section 2): Synced (regular), pause and warning. */
export type PinType = 'regular' | 'pause' | 'warning';

/**
 * What a pin shows. Paused and warning pins come from the spec's pin states; a regular pin shows its
 * connection (spec section 4: green online, amber registering, red otherwise).
 */
export type PinStatus = 'normal' | 'registering' | 'offline' | 'warning' | 'paused';

/** Worst first: a cluster takes the colour of the worst status inside it. */
export const PIN_STATUS_SEVERITY: readonly PinStatus[] = ['offline', 'warning', 'registering', 'paused', 'normal'];

type StatusFields = Pick<DeviceListItemShape, 'is_pause' | 'is_warning' | 'is_online' | 'is_registration'>;

export function pinTypeOf(device: StatusFields): PinType {
  if (device.is_pause) return 'pause';
  if (device.is_warning) return 'warning';
  return 'regular';
}

/** A device's connection (spec section 4): green online, amber registering, red otherwise. */
export type Connection = 'online' | 'registering' | 'offline';
export function connectionOf(device: Pick<StatusFields, 'is_online' | 'is_registration'>): Connection {
  if (device.is_online) return 'online';
  if (device.is_registration) return 'registering';
  return 'offline';
}

export function pinStatusOf(device: StatusFields): PinStatus {
  if (device.is_pause) return 'paused';
  if (device.is_warning) return 'warning';
  const connection = connectionOf(device);
  return connection === 'online' ? 'normal' : connection;
}

/** What a person reads for each connection and pin status (cards, badges). */
export const CONNECTION_TEXT: Record<Connection, string> = { online: 'Online', registering: 'Registering', offline: 'Offline' };
export const PIN_STATUS_TEXT: Record<PinStatus, string> = {
  normal: CONNECTION_TEXT.online,
  registering: CONNECTION_TEXT.registering,
  offline: CONNECTION_TEXT.offline,
  warning: 'Warning',
  paused: 'Paused',
};

export type StatusCounts = Record<PinStatus, number>;

export const emptyStatusCounts = (): StatusCounts => ({ normal: 0, registering: 0, offline: 0, warning: 0, paused: 0 });

/** The worst status with a non-zero count. */
export function worstStatus(counts: StatusCounts): PinStatus {
  return PIN_STATUS_SEVERITY.find((status) => counts[status] > 0) ?? 'normal';
}
