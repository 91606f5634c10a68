/**
 * The device answer of spec section 3 (plus what the device panel shows): the one definition that the
 * device API, the realtime patches and the client share.
 *
 * A device in the list: the fields of spec section 3, market_partners for the card chips and last_seen_at
 * (the last check-in).
 * The single-device answer adds what the device panel shows: the site time zone, the brand image, the
 * last check-in and every pending change with who asked for it and when the device should take it.
 */
/** What waits for the device (spec section 4): activation, rental, or any other setting not yet acknowledged. */
export type PendingFlags = { activation_changed: boolean; rental_changed: boolean; others: boolean };

export type DeviceListItem = Omit<DeviceAnswer, 'timezone_id' | 'brand_image_url' | 'batch2Id' | 'pending_changes'>;
export type DeviceAnswer = {
  id: number;
  serial: string;
  label: string;
  number: number | null;
  address: string;
  location: { lat: number; lng: number } | null;
  location_id: number | null;
  location_group: number;
  timezone_id: string | null;
  brand: number | null;
  brand_name: string | null;
  brand_image_url: string | null;
  location_event_type: string;
  left_pump_type: string;
  right_pump_type: string;
  batch: number | null;
  batchNumber: string | null;
  batch2Id: number | null;
  batch2Number: string | null;
  batch2: boolean;
  level_sensor1: boolean;
  level_sensor2: boolean;
  volume_remain: number;
  volume_remain2: number;
  is_pause: boolean;
  is_activated: boolean;
  active: string | null;
  is_online: boolean;
  is_registration: boolean;
  is_warning: boolean;
  is_batch_warning: boolean;
  is_maintenance: boolean;
  warning_lists: string[];
  is_enabled_vandalism: boolean;
  is_enabled_maintenance: boolean;
  pending_flags: PendingFlags;
  pending_changes: { id: number; kind: string; setting: string; requested_at: string; requested_by: number | null; expected_at: string | null; expires_at: string | null }[];
  poweroff_time: string | null;
  wakeup1_time: string | null;
  next_wakeup_time: string | null;
  last_seen_at: string | null;
  core_ver: string | null;
  signal_quality: number | null;
  battery_warning: boolean;
  battery_volt: number | null;
  battery_percent: number | null;
  rental: { start_date: string; end_date: string; start_time: string | null; end_time: string | null; pump_2_start_time: string | null; pump_2_end_time: string | null } | null;
  market_partners: { id: number; company: string }[];
  simcardPhoneNumber: string | null;
  imei: string | null;
  simSerialNumber: string | null;
};

/** The device fields realtime patches carry: the list answer. */
export type DeviceListItemShape = DeviceListItem;
