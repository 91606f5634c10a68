import { describe, expect, it } from 'vitest';
import type { PartnerUser } from '@fleet/shared';
import { partnerCompanies, pickerMatches } from './partners';

const user = (id: number, company: string, name: string, serials: string[] = [], type = 'market-partner') =>
  ({
    id,
    company,
    name,
    email: `${id}@x.test`,
    user_type: type,
    exclusive_device_serials: serials,
    exclusive_devices: [],
  }) as unknown as PartnerUser;

describe('partnerCompanies', () => {
  it('groups by company ignoring case, only market partners, counts distinct devices', () => {
    const list = partnerCompanies([
      user(1, 'Big Easy Events', 'Pat', ['A', 'B']),
      user(2, ' big easy events', 'Riley', ['B', 'C']),
      user(4, 'Northshore', 'Morgan'),
      user(5, 'Acme', 'Client', [], 'client'),
    ]);
    expect(list.map((c) => [c.name, c.users.map((u) => u.name), c.deviceCount])).toEqual([
      ['Big Easy Events', ['Pat', 'Riley'], 3],
      ['Northshore', ['Morgan'], 0],
    ]);
  });
});

describe('pickerMatches', () => {
  const devices = [
    { serial: 'SP2', label: 'Beach Kiosk', address: '1 Canal St, New Orleans' },
    { serial: 'SP1', label: 'Pool', address: '9 Lake Rd' },
  ];
  it('searches name, serial and address ignoring case and spaces, leaving out devices the user has', () => {
    expect(pickerMatches(devices, 'beachkiosk', new Set()).map((d) => d.serial)).toEqual(['SP2']);
    expect(pickerMatches(devices, 'canal st', new Set()).map((d) => d.serial)).toEqual(['SP2']);
    expect(pickerMatches(devices, 'sp', new Set(['SP2'])).map((d) => d.serial)).toEqual(['SP1']);
    expect(pickerMatches(devices, '', new Set()).map((d) => d.serial)).toEqual(['SP1', 'SP2']);
  });
});
