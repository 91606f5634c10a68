import type { ClientUser } from '@fleet/shared';
import { isDistributor, type ScopeViewer } from '../access/scope.ts';
import { ApiError } from '../lib/errors.ts';
import type { UsersRepository } from './users.repository.ts';

export type UsersServiceDeps = { repo: Pick<UsersRepository, 'listClients'> };

/** User accounts (spec sections 3, 6 and 7). Managing clients is a distributor's business only. */
export function usersService({ repo }: UsersServiceDeps) {
  return {
    /** GET /api/v1/myUser: the clients a distributor assigns brands to (the brand dialog's client slots). */
    async listClients(viewer: ScopeViewer): Promise<ClientUser[]> {
      if (!isDistributor(viewer)) throw ApiError.forbidden();
      return repo.listClients();
    },
  };
}
export type UsersService = ReturnType<typeof usersService>;
