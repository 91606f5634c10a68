import {
  resetPasswordProblem,
  type AccessLevel,
  type CurrentUser,
  type LoginInput,
  type ResetPasswordInput,
  type SignUpInput,
  USER_MESSAGES,
} from '@fleet/shared';
import crypto from 'node:crypto';
import { accessOf } from '../access/scope.ts';
import { ApiError } from '../lib/errors.ts';
import { dummyPasswordHash, hashPassword, keyHash, randomKey, verifyPassword } from '../lib/crypto.ts';
import type { Mailer } from '../mail/index.ts';
import type { SessionEnder } from '../realtime/index.ts';
import type { AuthRepository, UserRow } from './auth.repository.ts';
import type { Limits } from './limits.ts';

export type AuthServiceDeps = {
  repo: AuthRepository;
  mailer: Mailer;
  /** Attempt counters of sign-in, reset requests and the role lookup (limits.ts). */
  limits: Limits;
  secretKey: string;
  /** The workers' credential: distributor scope, and it alone may act as a given user (X-Act-As). */
  serviceToken?: string;
  /**
   * The /maintenance route's credential (spec section 7): whether a key is an active one (stored hashed,
   * rotatable and revocable: maintenance.service.ts). It gets a read-only distributor view that may also
   * record maintenance (auth.middleware.ts).
   */
  maintenanceCredential?: (key: string) => Promise<boolean>;
  publicUrl: string;
  /** Ends the sockets of a session that ends here (sign-out, password reset). */
  sessions?: SessionEnder;
  resetTokenTtlMinutes?: number;
  /**
   * Token lifetime: a token unused for idleHours expires (sliding: each use extends it, recorded at most
   * once a minute), and none lives longer than maxDays whatever its use.
   */
  sessionTtl?: { idleHours: number; maxDays: number };
  now?: () => Date;
  log?: (msg: string, err?: unknown) => void;
};

/** readOnly: the maintenance credential may look at everything and change nothing. */
/** tokenId: the API token behind the call (absent for the service and maintenance credentials). */
/** tokenExpiresAt: when that token expires if it is not used again (the push server ends its sockets then). */
export type Viewer = UserRow & { access: AccessLevel; readOnly?: boolean; tokenId?: number; tokenExpiresAt?: Date };

export function authService(deps: AuthServiceDeps) {
  const now = deps.now ?? (() => new Date());
  const hash = (key: string) => keyHash(deps.secretKey, key);
  /**
   * When this process last recorded each token's use. Concurrent calls with one token all read the same
   * last use; without this, every call in flight when the minute came round wrote the token's row (50 at
   * once under the bench's 50 connections, queued on that row's lock, each with its commit).
   */
  const touchedAt = new Map<number, number>();

  /** The service principal; acting as a user it takes that user's scope (overview pushed to that user). */
  async function serviceViewer(actAs?: string): Promise<Viewer> {
    if (actAs) {
      const user = await deps.repo.findUserById(Number(actAs));
      if (!user) throw ApiError.unauthorized('Unknown user to act as.');
      return { ...user, access: accessOf(user) };
    }
    return {
      id: 0,
      email: 'service@fleet.internal',
      username: 'service',
      passwordHash: '',
      company: '',
      phone: '',
      role: 'distributor',
      userType: 'distributor',
      activated: true,
      rejectedAt: null,
      deactivatedReason: null,
      profileUrl: null,
      notifyEmail: false,
      notifyPhone: false,
      notifyWeeklyReport: false,
      notifyDailyDispensation: false,
      createdAt: new Date(0),
      access: 'distributor',
    };
  }

  /** The sign-out or reset has happened in the database; failing to reach the sockets only gets logged. */
  async function endSockets(call: () => Promise<void> | undefined) {
    try {
      await call();
    } catch (err) {
      deps.log?.('ending sockets failed', err);
    }
  }

  return {
    /**
     * POST /auth/token/login/ : 400 for wrong credentials (the same answer whether or not the email
     * exists), 401 for an account that is not active (a pending sign-up or a deactivated account),
     * 429 with Retry-After once the attempts are spent (limits.ts: counted before the password check,
     * so parallel attempts cannot slip past the limit).
     */
    async login(input: LoginInput, address: string): Promise<{ auth_token: string }> {
      const attempt = await deps.limits.loginAttempt(input.email, address);
      const user = await deps.repo.findUserByEmail(input.email);
      const ok = await verifyPassword(input.password, user?.passwordHash ?? (await dummyPasswordHash()));
      if (!user || !ok) {
        throw new ApiError(400, { non_field_errors: ['Unable to log in with provided credentials.'] });
      }
      await attempt.succeeded();
      if (!user.activated) {
        // A sign-up request is not a deactivated account: the overdue-invoice dialog would mislead it.
        if (user.rejectedAt) throw new ApiError(401, { detail: USER_MESSAGES.signUpRejected, code: 'sign_up_rejected' });
        if (!user.deactivatedReason) throw new ApiError(401, { detail: USER_MESSAGES.signUpPending, code: 'sign_up_pending' });
        throw new ApiError(401, { detail: 'User account is disabled.', code: 'account_deactivated' });
      }
      const key = randomKey();
      await deps.repo.createToken(user.id, hash(key));
      return { auth_token: key };
    },

    /** Revokes the token and ends the sockets opened with it (the user's other sessions go on). */
    async logout(key: string): Promise<void> {
      const tokenId = await deps.repo.deleteToken(hash(key));
      if (tokenId) await endSockets(() => deps.sessions?.endTokenSession(tokenId, 'logout'));
    },

    /**
     * POST /auth/users/ : a sign-up request, not active until a distributor approves it. Throttled per
     * address and per email (limits.ts) before the password is hashed; a request refused by its schema
     * is not counted (it costs no hashing and adds nothing to the list).
     */
    async signUp(input: SignUpInput, address: string) {
      await deps.limits.signUp(input.email, address);
      const created = await deps.repo.createUser({
        email: input.email,
        username: input.username,
        passwordHash: await hashPassword(input.password),
        company: input.company,
        phone: input.phone,
        role: input.role,
        userType: input.role,
        activated: false,
        notifyEmail: input.isEnableNotificationEmail,
        notifyPhone: input.isEnableNotificationPhone,
      });
      if (!created) throw ApiError.field('email', 'user with this email already exists.');
      return { id: created.id, email: created.email, username: created.username, role: created.role };
    },

    /**
     * POST /api/v1/requestResetPassword/{email}: mails a link that opens `/?token=...`.
     * The spec's client shows 'Email Incorrect!' on any failure, so an unknown email answers 404.
     */
    async requestPasswordReset(email: string, address: string): Promise<void> {
      await deps.limits.resetRequest(email, address);
      const user = await deps.repo.findUserByEmail(email);
      if (!user) throw ApiError.notFound('No account with this email.');
      const token = randomKey(24);
      const ttl = deps.resetTokenTtlMinutes ?? 60;
      await deps.repo.createResetToken(user.id, hash(token), new Date(now().getTime() + ttl * 60_000));
      const link = `${deps.publicUrl}/?token=${token}`;
      await deps.mailer.send({
        to: user.email,
        subject: 'Reset your password',
        text: `Hello ${user.username},\n\nOpen this link to choose a new password (valid for ${ttl} minutes):\n${link}\n\nIf you did not ask for this, ignore this mail.`,
        html: `<p>Hello ${escapeHtml(user.username)},</p><p><a href="${link}">Choose a new password</a> (valid for ${ttl} minutes).</p><p>If you did not ask for this, ignore this mail.</p>`,
      });
    },

    /** POST /api/v1/resetPassword: the section 5 policy holds on the server too. */
    async resetPassword(input: ResetPasswordInput): Promise<void> {
      const problem = resetPasswordProblem(input.password, input.password);
      if (problem) throw ApiError.field('password', problem);
      const userId = await deps.repo.resetPassword(hash(input.token), await hashPassword(input.password), now());
      if (!userId) throw ApiError.field('token', 'This reset link is invalid or has expired.');
      // Every token of the user was revoked with the password: their open sockets end too.
      await endSockets(() => deps.sessions?.endUserSessions(userId, 'password-reset'));
    },

    /**
     * The signed-in user behind `Authorization: Token <key>`; 401 without or with a wrong token, 403 when
     * deactivated. `peek`: a check that is not a use (the push server's expiry check), so it slides nothing.
     */
    async authenticate(header: string | undefined, actAs?: string, opts: { peek?: boolean } = {}): Promise<Viewer> {
      const match = /^Token\s+([A-Za-z0-9]{10,128})\s*$/.exec(header ?? '');
      if (!header) throw ApiError.unauthorized();
      if (!match?.[1]) throw ApiError.unauthorized('Invalid token header.');
      if (deps.serviceToken && safeEqual(match[1], deps.serviceToken)) return serviceViewer(actAs);
      const found = await deps.repo.findUserByTokenHash(hash(match[1]));
      if (!found) {
        // Checked after the user tokens, so a user's call costs no extra query.
        if (deps.maintenanceCredential && (await deps.maintenanceCredential(match[1])))
          return { ...(await serviceViewer()), id: -1, username: 'maintenance', readOnly: true };
        throw ApiError.unauthorized('Invalid token.');
      }
      const { tokenCreatedAt, tokenLastUsedAt, ...user } = found;
      const at = now();
      const ttl = deps.sessionTtl ?? { idleHours: 168, maxDays: 30 };
      const lastActive = tokenLastUsedAt ?? tokenCreatedAt;
      if (
        at.getTime() - lastActive.getTime() > ttl.idleHours * 3_600_000 ||
        at.getTime() - tokenCreatedAt.getTime() > ttl.maxDays * 86_400_000
      ) {
        await deps.repo.deleteTokenById(user.tokenId);
        throw ApiError.unauthorized('Session expired.');
      }
      // Recorded at most once a minute (a tenth of the idle time when that is shorter), not on every call,
      // and once by this process however many of its calls find it due together.
      const every = Math.min(60_000, ttl.idleHours * 360_000);
      const recorded = Math.max(tokenLastUsedAt?.getTime() ?? 0, touchedAt.get(user.tokenId) ?? 0);
      const touch = !opts.peek && (!recorded || at.getTime() - recorded > every);
      if (touch) {
        if (touchedAt.size >= 10_000) for (const [id, t] of touchedAt) if (at.getTime() - t > every) touchedAt.delete(id);
        touchedAt.set(user.tokenId, at.getTime());
        await deps.repo.touchToken(user.tokenId, at);
      }
      if (!user.activated) throw new ApiError(403, { detail: 'User account is disabled.', code: 'account_deactivated' });
      const active = touch ? at.getTime() : Math.max(lastActive.getTime(), recorded);
      const tokenExpiresAt = new Date(
        Math.min(active + ttl.idleHours * 3_600_000, tokenCreatedAt.getTime() + ttl.maxDays * 86_400_000),
      );
      return { ...user, access: accessOf(user), tokenExpiresAt };
    },

    /** GET /api/v1/checkUser/{email}: the role lookup of the login screen. */
    async checkUser(email: string, address: string): Promise<{ role: string; user_type: string }> {
      await deps.limits.checkUser(address);
      const user = await deps.repo.findUserByEmail(email);
      if (!user) throw ApiError.notFound('No account with this email.');
      return { role: user.role, user_type: user.userType };
    },
  };
}
export type AuthService = ReturnType<typeof authService>;

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(hashKey(a));
  const y = Buffer.from(hashKey(b));
  return crypto.timingSafeEqual(x, y);
}
const hashKey = (k: string) => crypto.createHash('sha256').update(k).digest('hex');

export function currentUser(user: Viewer): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    company: user.company,
    phone: user.phone,
    role: user.role,
    user_type: user.userType,
    access: user.access,
    profile_url: user.profileUrl,
    activated: user.activated,
    is_enable_notification_email: user.notifyEmail,
    is_enable_notification_phone: user.notifyPhone,
    is_enable_notification_weekly_report: user.notifyWeeklyReport,
    is_enable_notification_daily_dispensation: user.notifyDailyDispensation,
  };
}

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
