/**
 * The demo fleet's fixed facts: real Louisiana parishes and real places around New Orleans
 * (30.0, -90.26). Coordinates are those of the named places; a test checks each lies inside its parish.
 */
import { OVERDUE_DEACTIVATION_REASON } from '@fleet/shared';

export const DEMO_PASSWORD = 'Demo1234';

export const PARISHES = [
  { key: 'orleans', fips: '22071', name: 'Orleans Parish' },
  { key: 'jefferson', fips: '22051', name: 'Jefferson Parish' },
  { key: 'st-tammany', fips: '22103', name: 'St. Tammany Parish' },
  { key: 'st-bernard', fips: '22087', name: 'St. Bernard Parish' },
  { key: 'st-charles', fips: '22089', name: 'St. Charles Parish' },
  { key: 'plaquemines', fips: '22075', name: 'Plaquemines Parish' },
  { key: 'st-john', fips: '22095', name: 'St. John the Baptist Parish' },
  { key: 'lafourche', fips: '22057', name: 'Lafourche Parish' },
] as const;
export type ParishKey = (typeof PARISHES)[number]['key'];

export type DemoSite = {
  name: string;
  address: string;
  lat: number;
  lng: number;
  parish: ParishKey;
  type: 'SITE' | 'EVENT';
  devices: number;
  brand: string;
  client?: string;
};

export const SITES: DemoSite[] = [
  {
    name: 'Audubon Park',
    address: '6500 Magazine St, New Orleans, LA 70118',
    lat: 29.9306,
    lng: -90.1246,
    parish: 'orleans',
    type: 'SITE',
    devices: 8,
    brand: 'SunStop',
    client: 'client@demo.test',
  },
  {
    name: 'Jazz & Heritage Festival',
    address: '1751 Gentilly Blvd, New Orleans, LA 70119',
    lat: 29.9847,
    lng: -90.081,
    parish: 'orleans',
    type: 'EVENT',
    devices: 7,
    brand: 'Gulf Shield SPF',
    client: 'client@demo.test',
  },
  {
    name: 'City Park',
    address: '1 Palm Dr, New Orleans, LA 70124',
    lat: 29.9934,
    lng: -90.0987,
    parish: 'orleans',
    type: 'SITE',
    devices: 6,
    brand: 'SunStop',
    client: 'client@demo.test',
  },
  {
    name: 'Lafreniere Park',
    address: '3000 Downs Blvd, Metairie, LA 70003',
    lat: 30.0015,
    lng: -90.1955,
    parish: 'jefferson',
    type: 'SITE',
    devices: 7,
    brand: 'Gulf Shield SPF',
    client: 'client2@demo.test',
  },
  {
    name: 'Lafitte Town Park',
    address: '2654 Jean Lafitte Blvd, Lafitte, LA 70067',
    lat: 29.736,
    lng: -90.109,
    parish: 'jefferson',
    type: 'SITE',
    devices: 6,
    brand: 'Bayou Clean',
    client: 'client2@demo.test',
  },
  {
    name: 'Fontainebleau State Park',
    address: '62883 LA-1089, Mandeville, LA 70448',
    lat: 30.3377,
    lng: -90.0371,
    parish: 'st-tammany',
    type: 'SITE',
    devices: 6,
    brand: 'Crescent Care',
  },
  {
    name: 'Chalmette Battlefield',
    address: '8606 W St Bernard Hwy, Chalmette, LA 70043',
    lat: 29.9424,
    lng: -89.9925,
    parish: 'st-bernard',
    type: 'SITE',
    devices: 6,
    brand: 'Bayou Clean',
    client: 'client2@demo.test',
  },
  // Lapsed Leisure's site (overdue@demo.test): its Basic Plan bill, DEMO-BASIC-0099, is the overdue one.
  {
    name: 'Destrehan Plantation',
    address: '13034 River Rd, Destrehan, LA 70047',
    lat: 29.9431,
    lng: -90.3533,
    parish: 'st-charles',
    type: 'SITE',
    devices: 6,
    brand: 'River Road Shade',
    client: 'overdue@demo.test',
  },
  {
    name: 'Belle Chasse Park',
    address: '8398 LA-23, Belle Chasse, LA 70037',
    lat: 29.8547,
    lng: -89.9906,
    parish: 'plaquemines',
    type: 'SITE',
    devices: 6,
    brand: 'Gulf Shield SPF',
    client: 'client2@demo.test',
  },
  {
    name: 'Frenier Landing',
    address: '161 Frenier Rd, LaPlace, LA 70068',
    lat: 30.1058,
    lng: -90.4222,
    parish: 'st-john',
    type: 'SITE',
    devices: 5,
    brand: 'SunStop',
  },
  {
    name: 'Nicholls State University',
    address: '906 E 1st St, Thibodaux, LA 70301',
    lat: 29.7925,
    lng: -90.802,
    parish: 'lafourche',
    type: 'EVENT',
    devices: 5,
    brand: 'Crescent Care',
  },
];

export const SPOTS = [
  'Main Entrance',
  'Playground',
  'Pool Deck',
  'Picnic Area',
  'Visitor Center',
  'Boat Launch',
  'Restrooms',
  'Parking Lot A',
  'Beach Access',
  'Trailhead',
  'Splash Pad',
  'Pavilion',
  'Tennis Courts',
  'Food Court',
];

export const BRANDS = [
  { name: 'SunStop', color: '#f59e0b', initials: 'SS', clients: ['client@demo.test'] },
  { name: 'Gulf Shield SPF', color: '#0ea5e9', initials: 'GS', clients: ['client@demo.test', 'client2@demo.test'] },
  { name: 'Bayou Clean', color: '#10b981', initials: 'BC', clients: ['client2@demo.test'] },
  { name: 'Crescent Care', color: '#8b5cf6', initials: 'CC', clients: [] as string[] },
  // Assigned to Lapsed Leisure before its invoice went overdue (a brand is only ever assigned to an activated client).
  { name: 'River Road Shade', color: '#e11d48', initials: 'RR', clients: ['overdue@demo.test'] },
];

export type DemoUser = {
  email: string;
  username: string;
  company: string;
  phone: string;
  role: 'distributor' | 'client';
  userType: 'distributor' | 'client' | 'market-partner';
  activated: boolean;
  deactivatedReason?: string;
};

/** One account per role (README "Demo accounts"), plus more companies and sign-up requests. */
export const USERS: DemoUser[] = [
  {
    email: 'distributor@demo.test',
    username: 'Dana Distributor',
    company: 'SunStop Distribution',
    phone: '+1 504 555 0100',
    role: 'distributor',
    userType: 'distributor',
    activated: true,
  },
  {
    email: 'client@demo.test',
    username: 'Chris Client',
    company: 'Crescent City Parks',
    phone: '+1 504 555 0101',
    role: 'client',
    userType: 'client',
    activated: true,
  },
  {
    email: 'partner@demo.test',
    username: 'Pat Partner',
    company: 'Big Easy Events',
    phone: '+1 504 555 0102',
    role: 'distributor',
    userType: 'market-partner',
    activated: true,
  },
  {
    email: 'client2@demo.test',
    username: 'Casey Coastal',
    company: 'Gulf Coast Recreation',
    phone: '+1 985 555 0110',
    role: 'client',
    userType: 'client',
    activated: true,
  },
  {
    email: 'partner2@demo.test',
    username: 'Morgan Marsh',
    company: 'Northshore Outdoors',
    phone: '+1 985 555 0111',
    role: 'distributor',
    userType: 'market-partner',
    activated: true,
  },
  {
    email: 'partner3@demo.test',
    username: 'Riley Reed',
    company: 'big easy events',
    phone: '',
    role: 'distributor',
    userType: 'market-partner',
    activated: true,
  },
  {
    email: 'signup1@demo.test',
    username: 'Jordan Pelican',
    company: 'Pelican Outfitters',
    phone: '+1 225 555 0120',
    role: 'distributor',
    userType: 'distributor',
    activated: false,
  },
  {
    email: 'signup2@demo.test',
    username: 'Taylor Levee',
    company: 'Levee Sports Co.',
    phone: '',
    role: 'distributor',
    userType: 'distributor',
    activated: false,
  },
  {
    email: 'overdue@demo.test',
    username: 'Owen Overdue',
    company: 'Lapsed Leisure LLC',
    phone: '',
    role: 'client',
    userType: 'client',
    activated: false,
    deactivatedReason: OVERDUE_DEACTIVATION_REASON,
  },
];

/** Batches in every status. Days are relative to the seed day; volumes are entered in fl.oz. */
export const BATCHES = [
  { batchNo: 'SPF-2601', type: 1, installedDaysAgo: 60, expiresInDays: 300, flOz: 338, remainShare: 0.55, recalled: false },
  { batchNo: 'SPF-2602', type: 1, installedDaysAgo: 20, expiresInDays: 420, flOz: 338, remainShare: 0.85, recalled: false },
  { batchNo: 'SPF-2603', type: 1, installedDaysAgo: 5, expiresInDays: 500, flOz: 169, remainShare: 1, recalled: false },
  { batchNo: 'SPF-2510', type: 1, installedDaysAgo: 200, expiresInDays: 12, flOz: 338, remainShare: 0.2, recalled: false },
  { batchNo: 'SPF-2504', type: 1, installedDaysAgo: 330, expiresInDays: -10, flOz: 338, remainShare: 0.05, recalled: false },
  { batchNo: 'SPF-2507', type: 1, installedDaysAgo: 120, expiresInDays: 240, flOz: 338, remainShare: 0.4, recalled: true },
  { batchNo: 'SAN-2601', type: 2, installedDaysAgo: 45, expiresInDays: 600, flOz: 338, remainShare: 0.6, recalled: false },
  { batchNo: 'SAN-2602', type: 2, installedDaysAgo: 3, expiresInDays: 700, flOz: 169, remainShare: 1, recalled: false },
  { batchNo: 'SAN-2509', type: 2, installedDaysAgo: 300, expiresInDays: 20, flOz: 338, remainShare: 0.15, recalled: false },
  { batchNo: 'SAN-2501', type: 2, installedDaysAgo: 400, expiresInDays: -40, flOz: 169, remainShare: 0, recalled: false },
] as const;

/**
 * Demo devices left out of the live simulator, so the warnings that come from a device's own readings stay
 * for a visitor to see (the simulator's units report fresh batteries and reservoirs, and check in, which
 * would clear them): a low battery (BATTERY), a low left and a low right reservoir (LEFT_PUMP_VOLUME,
 * RIGHT_PUMP_VOLUME) and a unit placed but never reported (REGISTRATION). PUMP_SENSOR, FAILED_REQUEST and
 * the batch warnings hold under the simulator. These units show offline once their schedule lapses.
 */
export const DEMO_STILL_SERIALS: readonly string[] = ['SP240003', 'SP240016', 'SP240021', 'SP240063'];
