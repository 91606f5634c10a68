import type { ClientUser } from '@fleet/shared';
import { describe, expect, it } from 'vitest';
import type { ImageStore } from '../brands/index.ts';
import { ApiError } from '../lib/errors.ts';
import type { UserPatch, UserRow, UsersRepository } from './users.repository.ts';
import { mayEdit, toUserAccount, usersService } from './users.service.ts';

const CLIENT: ClientUser = {
  id: 2,
  name: 'Chris Client',
  company: 'Crescent City Parks',
  email: 'client@demo.test',
  phone: '',
  brands: [{ id: 1, name: 'SunStop' }],
  profile_url: null,
  is_enable_notification_email: false,
  is_enable_notification_phone: false,
};
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const PHP = new TextEncoder().encode('<?php system($_GET["c"]); ?>');

const row = (id: number, email: string, over: Partial<UserRow> = {}): UserRow => ({
  id,
  email,
  username: email.split('@')[0]!,
  passwordHash: 'x',
  company: 'Co',
  phone: '',
  role: 'client',
  userType: 'client',
  activated: true,
  rejectedAt: null,
  deactivatedReason: null,
  profileUrl: null,
  notifyEmail: false,
  notifyPhone: false,
  notifyWeeklyReport: false,
  notifyDailyDispensation: false,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  ...over,
});

const DIST = { id: 1, access: 'distributor' as const };
const CLI = { id: 2, access: 'client' as const };
const MP = { id: 3, access: 'market-partner' as const };

/** An in-memory users table, an image store that counts files, and a queue that records mails. */
function setup(extra: UserRow[] = []) {
  const rows = new Map<string, UserRow>(
    [
      row(1, 'distributor@demo.test', { role: 'distributor', userType: 'distributor' }),
      row(2, 'client@demo.test', { profileUrl: '/uploads/profiles/old.png' }),
      row(3, 'partner@demo.test', { role: 'distributor', userType: 'market-partner' }),
      row(4, 'signup@demo.test', { role: 'distributor', userType: 'distributor', activated: false }),
      row(5, 'overdue@demo.test', { activated: false, deactivatedReason: 'invoice overdue' }),
      row(6, 'other.distributor@demo.test', { role: 'distributor', userType: 'distributor' }),
      ...extra,
    ].map((r) => [r.email, r]),
  );
  const stored: string[] = [];
  const removed: string[] = [];
  const mails: { payload: unknown; key?: string }[] = [];
  let failWrite = false;
  const repo: UsersRepository = {
    listClients: async () => [CLIENT],
    listPendingSignUps: async () => [...rows.values()].filter((r) => !r.activated && !r.rejectedAt && !r.deactivatedReason),
    byEmail: async (email) => rows.get(email),
    update: async (id, patch: UserPatch) => {
      if (failWrite) throw new Error('database down');
      const current = [...rows.values()].find((r) => r.id === id)!;
      const next = { ...current, ...patch } as UserRow;
      rows.set(next.email, next);
      return next;
    },
    transaction: (fn) => fn(repo),
  };
  const images: ImageStore = {
    put: async (_bytes, kind) => {
      const url = `/uploads/profiles/${stored.length}.${kind.ext}`;
      stored.push(url);
      return url;
    },
    remove: async (url) => void (url && removed.push(url)),
  };
  const queue = {
    enqueue: async (_name: string, payload: unknown, opts?: { idempotencyKey?: string }) =>
      void mails.push({ payload, key: opts?.idempotencyKey }),
  };
  const service = usersService({
    repo,
    images,
    queue,
    publicUrl: 'http://portal.test',
    now: () => new Date('2026-02-01T00:00:00Z'),
    log: () => undefined,
  });
  return { service, rows, stored, removed, mails, breakWrites: () => void (failWrite = true) };
}

const statusOf = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  return (err as ApiError).status;
};

describe('users service: the client list', () => {
  it('answers a distributor the repository list and refuses others (403)', async () => {
    const { service } = setup();
    await expect(service.listClients(DIST)).resolves.toEqual([CLIENT]);
    expect(await statusOf(service.listClients(CLI))).toBe(403);
    expect(await statusOf(service.listClients(MP))).toBe(403);
  });
});

describe('users service: sign-up requests', () => {
  it('lists only requests waiting for a decision, typed Client, to distributors only', async () => {
    const { service } = setup([row(7, 'gone@demo.test', { activated: false, rejectedAt: new Date() })]);
    const list = await service.listPending(DIST);
    expect(list.map((u) => u.email)).toEqual(['signup@demo.test']);
    expect(list[0]).toMatchObject({ type: 'Client', activated: false, rejected: false, name: 'signup', username: 'signup' });
    expect(await statusOf(service.listPending(CLI))).toBe(403);
    expect(await statusOf(service.listPending(MP))).toBe(403);
  });

  it('activates a request as a client account and mails it once, however often it is asked', async () => {
    const { service, rows, mails } = setup();
    const first = await service.activate(DIST, 'SIGNUP@demo.test');
    expect(first).toMatchObject({ detail: 'signup@demo.test has been activated!', already: false });
    expect(rows.get('signup@demo.test')).toMatchObject({ activated: true, role: 'client', userType: 'client' });
    const again = await service.activate(DIST, 'signup@demo.test');
    expect(again).toMatchObject({ detail: 'signup@demo.test has been activated!', already: true });
    expect(mails).toEqual([
      {
        payload: { to: 'signup@demo.test', name: 'signup', decision: 'activated', signInUrl: 'http://portal.test/' },
        key: 'sign-up-decision:activated:4',
      },
    ]);
  });

  it('rejects a request (kept, marked, mailed once) and refuses to reject an active account', async () => {
    const { service, rows, mails } = setup();
    await expect(service.reject(DIST, 'signup@demo.test')).resolves.toMatchObject({
      detail: 'signup@demo.test has been rejected!',
      already: false,
    });
    expect(rows.get('signup@demo.test')!.rejectedAt).toEqual(new Date('2026-02-01T00:00:00Z'));
    await expect(service.reject(DIST, 'signup@demo.test')).resolves.toMatchObject({ already: true });
    expect(mails.map((m) => m.key)).toEqual(['sign-up-decision:rejected:4']);
    expect(await statusOf(service.reject(DIST, 'client@demo.test'))).toBe(400);
  });

  it('never activates an account deactivated for an overdue invoice', async () => {
    const { service, rows, mails } = setup();
    expect(await statusOf(service.activate(DIST, 'overdue@demo.test'))).toBe(400);
    expect(await statusOf(service.reject(DIST, 'overdue@demo.test'))).toBe(400);
    expect(rows.get('overdue@demo.test')!.activated).toBe(false);
    expect(mails).toEqual([]);
  });

  it('answers 404 for an unknown or malformed email and 403 for clients and market partners', async () => {
    const { service, rows } = setup();
    expect(await statusOf(service.activate(DIST, 'nobody@demo.test'))).toBe(404);
    expect(await statusOf(service.reject(DIST, 'not an email'))).toBe(404);
    expect(await statusOf(service.activate(CLI, 'signup@demo.test'))).toBe(403);
    expect(await statusOf(service.reject(MP, 'signup@demo.test'))).toBe(403);
    expect(rows.get('signup@demo.test')).toMatchObject({ activated: false, rejectedAt: null });
  });
});

describe('users service: editUser', () => {
  it("applies 'True'/'False', keeps what is 'None' or left out, and never changes the email", async () => {
    const { service, rows } = setup();
    rows.set('client@demo.test', { ...rows.get('client@demo.test')!, notifyPhone: true });
    const saved = await service.edit(
      CLI,
      'client@demo.test',
      {
        phone: ' +1 504 555 0199 ',
        isEnableNotificationEmail: 'True',
        isEnableNotificationPhone: 'None',
        isEnableNotificationWeeklyReport: 'true',
        email: 'x@y.test',
      },
      undefined,
    );
    expect(saved).toMatchObject({
      email: 'client@demo.test',
      phone: '+1 504 555 0199',
      company: 'Co',
      is_enable_notification_email: true,
      is_enable_notification_phone: true,
      is_enable_notification_weekly_report: true,
      is_enable_notification_daily_dispensation: false,
    });
  });

  it('lets a distributor edit a request and a client, but not another distributor or a partner', async () => {
    const { service } = setup();
    await expect(service.edit(DIST, 'signup@demo.test', { company: 'Pelican Outfitters LLC' }, undefined)).resolves.toMatchObject(
      { company: 'Pelican Outfitters LLC' },
    );
    await expect(service.edit(DIST, 'client@demo.test', { username: 'Chris C.' }, undefined)).resolves.toMatchObject({
      name: 'Chris C.',
    });
    expect(await statusOf(service.edit(DIST, 'other.distributor@demo.test', { phone: '1' }, undefined))).toBe(403);
    expect(await statusOf(service.edit(DIST, 'partner@demo.test', { phone: '1' }, undefined))).toBe(403);
  });

  it('lets a client or partner edit only itself: 403 for another account, 404 for an unknown one', async () => {
    const { service, rows } = setup();
    expect(await statusOf(service.edit(CLI, 'signup@demo.test', { phone: '1' }, undefined))).toBe(403);
    expect(await statusOf(service.edit(MP, 'client@demo.test', { phone: '1' }, undefined))).toBe(403);
    expect(await statusOf(service.edit(CLI, 'nobody@demo.test', { phone: '1' }, undefined))).toBe(404);
    await expect(
      service.edit(MP, 'partner@demo.test', { isEnableNotificationDailyDispensation: 'True' }, undefined),
    ).resolves.toMatchObject({ is_enable_notification_daily_dispensation: true });
    expect(rows.get('signup@demo.test')!.phone).toBe('');
  });

  it('answers field messages for a bad flag, a blank name and an image that is not one by content', async () => {
    const { service, stored } = setup();
    const err = await service
      .edit(CLI, 'client@demo.test', { isEnableNotificationEmail: 'yes', username: '  ' }, { bytes: PHP })
      .catch((e: ApiError) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect(Object.keys((err as ApiError).body).sort()).toEqual(['image', 'isEnableNotificationEmail', 'username']);
    expect(stored).toEqual([]);
  });

  it('stores a new image, forgets the old one, and takes the new one back when the write fails', async () => {
    const { service, stored, removed, breakWrites } = setup();
    const saved = await service.edit(CLI, 'client@demo.test', {}, { bytes: PNG });
    expect(saved.profile_url).toBe('/uploads/profiles/0.png');
    expect(removed).toEqual(['/uploads/profiles/old.png']);
    breakWrites();
    await expect(service.edit(CLI, 'client@demo.test', {}, { bytes: PNG })).rejects.toThrow('database down');
    expect(stored).toEqual(['/uploads/profiles/0.png', '/uploads/profiles/1.png']);
    expect(removed).toEqual(['/uploads/profiles/old.png', '/uploads/profiles/1.png']);
  });

  it("removes the image with isRemoveImage 'True', and refuses an image with it", async () => {
    const { service, removed } = setup();
    expect(await statusOf(service.edit(CLI, 'client@demo.test', { isRemoveImage: 'True' }, { bytes: PNG }))).toBe(400);
    await expect(service.edit(CLI, 'client@demo.test', { isRemoveImage: 'True' }, undefined)).resolves.toMatchObject({
      profile_url: null,
    });
    expect(removed).toEqual(['/uploads/profiles/old.png']);
  });
});

describe('who may edit whom, and the account answer', () => {
  it('follows spec section 6', () => {
    const dist = row(1, 'd@x.test', { role: 'distributor', userType: 'distributor' });
    expect(mayEdit(DIST, dist)).toBe(true);
    expect(mayEdit(DIST, row(9, 'c@x.test'))).toBe(true);
    expect(mayEdit(DIST, row(9, 'r@x.test', { activated: false, rejectedAt: new Date() }))).toBe(false);
    expect(mayEdit(CLI, row(9, 'c@x.test'))).toBe(false);
  });

  it('labels the type as the dialog shows it', () => {
    expect(toUserAccount(row(1, 'd@x.test', { role: 'distributor', userType: 'distributor' })).type).toBe('Distributor');
    expect(toUserAccount(row(3, 'p@x.test', { role: 'distributor', userType: 'market-partner' })).type).toBe('Market Partner');
    expect(toUserAccount(row(4, 's@x.test', { role: 'distributor', userType: 'distributor', activated: false })).type).toBe(
      'Client',
    );
  });
});
