import {
  editUserFieldsSchema,
  emailParamSchema,
  fieldErrors,
  USER_MESSAGES,
  type ClientUser,
  type SignUpDecisionAnswer,
  type UserAccount,
} from '@fleet/shared';
import type { JobName, JobQueue } from '@fleet/workers';
import { accessOf, isDistributor, type ScopeViewer } from '../access/scope.ts';
import { checkImage, type ImageStore, type UploadedImage, withStoredImage } from '../brands/index.ts';
import { ApiError } from '../lib/errors.ts';
import type { UserPatch, UserRow, UsersRepository } from './users.repository.ts';

export type UsersServiceDeps = {
  repo: UsersRepository;
  /** Profile images: the brand logos' store and checks, in its own folder. */
  images: ImageStore;
  queue: Pick<JobQueue<JobName>, 'enqueue'>;
  /** Where the activation mail tells the person to sign in. */
  publicUrl: string;
  now: () => Date;
  log: (msg: string, err?: unknown) => void;
};

const notFound = () => ApiError.notFound(USER_MESSAGES.notFound);

/**
 * User accounts (spec sections 3, 4, 6 and 7). Managing clients and sign-up requests is a
 * distributor's business; everyone manages their own account (Account Settings).
 */
export function usersService(deps: UsersServiceDeps) {
  const { repo } = deps;

  const forget = async (url: string | null | undefined) => {
    try {
      await deps.images.remove(url);
    } catch (err) {
      deps.log(`could not remove profile image ${url}`, err);
    }
  };

  /** An email in the path: one that cannot be an address names no account (404, as an unknown one). */
  const emailOf = (raw: unknown): string => {
    const parsed = emailParamSchema.safeParse(raw);
    if (!parsed.success) throw notFound();
    return parsed.data;
  };

  /** Queues the outcome mail after commit. The key makes a repeated or retried call mail once. */
  const mailDecision = async (user: UserRow, decision: 'activated' | 'rejected') => {
    try {
      await deps.queue.enqueue(
        'sign-up-decision',
        { to: user.email, name: user.username, decision, signInUrl: `${deps.publicUrl}/` },
        { idempotencyKey: `sign-up-decision:${decision}:${user.id}` },
      );
    } catch (err) {
      // The decision stands (it is committed); a mail that cannot be queued is logged, not fatal.
      deps.log(`user ${user.id}: ${decision} mail not queued`, err);
    }
  };

  return {
    /** GET /api/v1/myUser: the clients a distributor assigns brands to (the brand dialog's client slots). */
    async listClients(viewer: ScopeViewer): Promise<ClientUser[]> {
      if (!isDistributor(viewer)) throw ApiError.forbidden();
      return repo.listClients();
    },

    /** GET /api/v1/get_pending_user: sign-up requests only (spec section 4: not yet activated). */
    async listPending(viewer: ScopeViewer): Promise<UserAccount[]> {
      if (!isDistributor(viewer)) throw ApiError.forbidden();
      return (await repo.listPendingSignUps()).map(toUserAccount);
    },

    /**
     * POST /api/v1/editUser/{email}: everyone edits their own account; a distributor also edits a
     * pending sign-up (Edit Request) and a client account (Edit Account). Anyone else's is 403, an
     * unknown email 404. Fields left out, or 'None', keep their value. A new image is checked by its
     * content like a brand logo; it is stored before the write and taken back if the write fails.
     */
    async edit(viewer: ScopeViewer, emailParam: unknown, fields: unknown, file: UploadedImage | undefined): Promise<UserAccount> {
      const email = emailOf(emailParam);
      const errors: Record<string, string[]> = {};
      const parsed = editUserFieldsSchema.safeParse(fields ?? {});
      if (!parsed.success) Object.assign(errors, fieldErrors(parsed.error));
      const image = checkImage(file, { required: false, errors });
      if (image && parsed.success && parsed.data.isRemoveImage) errors.isRemoveImage = [USER_MESSAGES.imageAndRemove];
      // Who may is decided before the body's problems are told: a stranger learns nothing from a 400.
      const target = await repo.byEmail(email);
      if (!target) throw notFound();
      if (!mayEdit(viewer, target)) throw ApiError.forbidden();
      if (!parsed.success || Object.keys(errors).length) throw new ApiError(400, errors);

      const input = parsed.data;
      const patch: UserPatch = {};
      if (input.username !== undefined) patch.username = input.username;
      if (input.company !== undefined) patch.company = input.company;
      if (input.phone !== undefined) patch.phone = input.phone;
      if (input.isEnableNotificationEmail !== undefined) patch.notifyEmail = input.isEnableNotificationEmail;
      if (input.isEnableNotificationPhone !== undefined) patch.notifyPhone = input.isEnableNotificationPhone;
      if (input.isEnableNotificationWeeklyReport !== undefined) patch.notifyWeeklyReport = input.isEnableNotificationWeeklyReport;
      if (input.isEnableNotificationDailyDispensation !== undefined)
        patch.notifyDailyDispensation = input.isEnableNotificationDailyDispensation;
      if (input.isRemoveImage) patch.profileUrl = null;

      const { url, result } = await withStoredImage(deps.images, forget, image, (url) =>
        repo.transaction(async (tx) => {
          const current = await tx.byEmail(email, { lock: true });
          if (!current) throw notFound();
          // Checked again under the lock: an activation in between turns a request into a client, still editable.
          if (!mayEdit(viewer, current)) throw ApiError.forbidden();
          const next = url ? { ...patch, profileUrl: url } : patch;
          const row = Object.keys(next).length ? await tx.update(current.id, next) : current;
          return { row, previousImage: current.profileUrl };
        }),
      );
      if ((url || input.isRemoveImage) && result.previousImage !== result.row.profileUrl) await forget(result.previousImage);
      return toUserAccount(result.row);
    },

    /**
     * POST /api/v1/activeUser/{email} (Activate Account). The request detail tells the distributor the
     * user type is Client, so that is what the account becomes: sign-up is open to anyone, and an
     * approval must not hand a stranger the whole fleet. Idempotent: an active account is answered
     * as it is and mailed nothing. A rejected request may still be activated (a change of mind).
     */
    async activate(viewer: ScopeViewer, emailParam: unknown): Promise<SignUpDecisionAnswer> {
      if (!isDistributor(viewer)) throw ApiError.forbidden();
      const email = emailOf(emailParam);
      const outcome = await repo.transaction(async (tx) => {
        const user = await tx.byEmail(email, { lock: true });
        if (!user) throw notFound();
        if (user.activated) return { user, changed: false };
        // An account deactivated for an overdue invoice comes back by payment, never by this button.
        if (user.deactivatedReason) throw ApiError.badRequest(USER_MESSAGES.notASignUp);
        const row = await tx.update(user.id, { activated: true, rejectedAt: null, role: 'client', userType: 'client' });
        return { user: row, changed: true };
      });
      if (outcome.changed) await mailDecision(outcome.user, 'activated');
      return {
        detail: USER_MESSAGES.activated(outcome.user.email),
        user: toUserAccount(outcome.user),
        already: !outcome.changed,
      };
    },

    /**
     * POST /api/v1/rejectUser/{email} (Reject). The request leaves the list and cannot sign in; the row
     * stays (so the email is not silently free for a new sign-up, and the decision is on record).
     * Idempotent like activate. An active account is not a request: 400.
     */
    async reject(viewer: ScopeViewer, emailParam: unknown): Promise<SignUpDecisionAnswer> {
      if (!isDistributor(viewer)) throw ApiError.forbidden();
      const email = emailOf(emailParam);
      const outcome = await repo.transaction(async (tx) => {
        const user = await tx.byEmail(email, { lock: true });
        if (!user) throw notFound();
        if (user.activated) throw ApiError.badRequest(USER_MESSAGES.alreadyActive);
        if (user.deactivatedReason) throw ApiError.badRequest(USER_MESSAGES.notASignUp);
        if (user.rejectedAt) return { user, changed: false };
        return { user: await tx.update(user.id, { rejectedAt: deps.now() }), changed: true };
      });
      if (outcome.changed) await mailDecision(outcome.user, 'rejected');
      return { detail: USER_MESSAGES.rejected(outcome.user.email), user: toUserAccount(outcome.user), already: !outcome.changed };
    },
  };
}

// ---------------------------------------------------------------- pure parts (unit tested)

/** True for a sign-up request still waiting for a decision (see isPendingSignUp in the repository). */
export const isPendingRow = (u: Pick<UserRow, 'activated' | 'rejectedAt' | 'deactivatedReason'>) =>
  !u.activated && !u.rejectedAt && !u.deactivatedReason;

/** Own account always; a distributor also a pending sign-up or a client account (spec section 6). */
export function mayEdit(viewer: ScopeViewer, target: UserRow): boolean {
  if (viewer.id === target.id) return true;
  if (!isDistributor(viewer)) return false;
  return isPendingRow(target) || (target.activated && accessOf(target) === 'client');
}

const TYPE_LABEL: Record<string, string> = { distributor: 'Distributor', client: 'Client', 'market-partner': 'Market Partner' };

export function toUserAccount(u: UserRow): UserAccount {
  // A request becomes a client account when activated (see activate), so that is its type meanwhile.
  const type = isPendingRow(u) || u.rejectedAt ? 'Client' : (TYPE_LABEL[accessOf(u)] ?? u.userType);
  return {
    id: u.id,
    name: u.username,
    username: u.username,
    company: u.company,
    email: u.email,
    phone: u.phone,
    role: u.role,
    user_type: u.userType,
    type,
    activated: u.activated,
    rejected: u.rejectedAt !== null,
    profile_url: u.profileUrl,
    is_enable_notification_email: u.notifyEmail,
    is_enable_notification_phone: u.notifyPhone,
    is_enable_notification_weekly_report: u.notifyWeeklyReport,
    is_enable_notification_daily_dispensation: u.notifyDailyDispensation,
    created_at: u.createdAt.toISOString(),
  };
}
