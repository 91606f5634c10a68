import { email as emailSchema, exclusiveDevicesSchema, NOT_A_PARTNER, type PartnerUser } from '@fleet/shared';
import { isDistributor, type ScopeViewer } from '../access/scope.ts';
import { ApiError, parse } from '../lib/errors.ts';
import type { PartnersRepository } from './partners.repository.ts';

/** Takes devices out of a user's live socket subscriptions (device-access.ts). */
export type DeviceAccessNotifier = { revokeDevices(userId: number, serials: string[]): Promise<void> };

export type PartnersServiceDeps = {
  repo: PartnersRepository;
  deviceAccess: DeviceAccessNotifier;
  log: (msg: string, err?: unknown) => void;
  /**
   * Devices whose answers a committed write changed (their market_partners): the pollers watching them
   * poll now (workers/src/realtime/nudge.ts), so other screens see it within a second.
   */
  devicesChanged?: (serials: string[]) => void;
};

type Viewer = ScopeViewer & { readOnly?: boolean };

const NOT_FOUND = 'No user with this email.';

/**
 * Market partners and their exclusive devices (spec sections 3 and 6, the /exclusive-management page).
 * Only distributors manage them; a market-partner account (role distributor, user_type market-partner)
 * is not one here, nor is the read-only maintenance credential. Exclusive devices are what
 * deviceScope gives a market-partner user, over REST and sockets alike.
 */
export function partnersService(deps: PartnersServiceDeps) {
  const { repo } = deps;

  function requireDistributor(viewer: Viewer) {
    if (!isDistributor(viewer) || viewer.readOnly) throw ApiError.forbidden();
  }

  /** The partner account for {email} and the devices of the body, checked inside the caller's transaction. */
  async function resolve(tx: PartnersRepository, emailParam: unknown, body: unknown) {
    const parsedEmail = emailSchema().safeParse(emailParam);
    if (!parsedEmail.success) throw ApiError.notFound(NOT_FOUND);
    const input = parse(exclusiveDevicesSchema, body ?? {});
    const account = await tx.accountByEmail(parsedEmail.data);
    if (!account) throw ApiError.notFound(NOT_FOUND);
    if (account.userType !== 'market-partner') throw ApiError.field('email', NOT_A_PARTNER);
    const found = await tx.devicesBySerials(input.deviceSerials);
    const known = new Set(found.map((d) => d.serial));
    const unknown = input.deviceSerials.filter((s) => !known.has(s));
    if (unknown.length) throw new ApiError(400, { deviceSerials: unknown.map((s) => `Unknown device: ${s}`) });
    return { account, found };
  }

  async function answerOf(tx: PartnersRepository, userId: number): Promise<PartnerUser> {
    const [row] = await tx.listUsers(userId);
    if (!row) throw ApiError.notFound(NOT_FOUND);
    return row;
  }

  return {
    /** GET /api/v1/allUser: every account (rejected sign-ups aside) with company and exclusive devices. */
    async listUsers(viewer: Viewer): Promise<PartnerUser[]> {
      requireDistributor(viewer);
      return repo.listUsers();
    },

    /** POST /api/v1/addExclusiveDevices/{email}: the devices become that partner's (others keep theirs). */
    async addDevices(viewer: Viewer, emailParam: unknown, body: unknown): Promise<PartnerUser> {
      requireDistributor(viewer);
      const { answer, serials } = await repo.transaction(async (tx) => {
        const { account, found } = await resolve(tx, emailParam, body);
        await tx.addExclusive(
          account.id,
          found.map((d) => d.id),
        );
        return { answer: await answerOf(tx, account.id), serials: found.map((d) => d.serial) };
      });
      deps.devicesChanged?.(serials);
      return answer;
    },

    /**
     * POST /api/v1/removeExclusiveDevices/{email}: the partner loses those devices at once, over REST (the
     * scope reads the table) and over its open sockets (they leave the devices' rooms after the commit).
     * Serials the partner did not have are accepted: the result is the same.
     */
    async removeDevices(viewer: Viewer, emailParam: unknown, body: unknown): Promise<PartnerUser> {
      requireDistributor(viewer);
      const { answer, userId, removed } = await repo.transaction(async (tx) => {
        const { account, found } = await resolve(tx, emailParam, body);
        const removedIds = new Set(
          await tx.removeExclusive(
            account.id,
            found.map((d) => d.id),
          ),
        );
        return {
          answer: await answerOf(tx, account.id),
          userId: account.id,
          removed: found.filter((d) => removedIds.has(d.id)).map((d) => d.serial),
        };
      });
      deps.devicesChanged?.(removed);
      if (removed.length) {
        // After the commit: a socket that subscribed in between was checked against the new scope already.
        await deps.deviceAccess.revokeDevices(userId, removed).catch((err) => deps.log('revoking socket rooms failed', err));
      }
      return answer;
    },
  };
}
