import type { ClientUser } from '@fleet/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/errors.ts';
import { usersService } from './users.service.ts';

const CLIENT: ClientUser = { id: 2, name: 'Chris Client', company: 'Crescent City Parks', email: 'client@demo.test', phone: '', brands: [{ id: 1, name: 'SunStop' }] };

function setup() {
  let reads = 0;
  const service = usersService({ repo: { listClients: async () => (reads++, [CLIENT]) } });
  return { service, reads: () => reads };
}

describe('users service: the client list', () => {
  it('answers a distributor the repository list', async () => {
    const { service, reads } = setup();
    await expect(service.listClients({ id: 1, access: 'distributor' })).resolves.toEqual([CLIENT]);
    expect(reads()).toBe(1);
  });

  it.each(['client', 'market-partner'] as const)('refuses a %s (403) without reading', async (access) => {
    const { service, reads } = setup();
    const err = await service.listClients({ id: 2, access }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(403);
    expect(reads()).toBe(0);
  });
});
