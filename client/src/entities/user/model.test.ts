import type { ClientUser } from '@fleet/shared';
import { allSettled, fork } from 'effector';
import { describe, expect, it } from 'vitest';
import { $clientChoices, clientChoices, clientUsersCleared, clientUsersRequested, fetchClientUsersFx } from './model';

const client = (email: string, company: string, brands: ClientUser['brands'] = []): ClientUser => ({
  id: email.length,
  name: company,
  company,
  email,
  phone: '',
  brands,
  profile_url: null,
  is_enable_notification_email: false,
  is_enable_notification_phone: false,
});

describe('client choices', () => {
  it('lists each client once, by company', () => {
    const choices = clientChoices([client('z@x.test', 'Zed'), client('a@x.test', 'Acme'), client('a@x.test', 'Acme')]);
    expect(choices.map((c) => [c.email, c.label])).toEqual([
      ['a@x.test', 'Acme'],
      ['z@x.test', 'Zed'],
    ]);
  });

  it('adds the email when two clients share a company name', () => {
    const choices = clientChoices([client('b@x.test', 'Acme'), client('a@x.test', 'ACME'), client('c@x.test', '')]);
    expect(choices.map((c) => c.label)).toEqual(['ACME (a@x.test)', 'Acme (b@x.test)', 'c@x.test']);
  });

  it('offers every client GET /api/v1/myUser answers, one with no brand too, until the session ends', async () => {
    const scope = fork({
      handlers: [
        [
          fetchClientUsersFx,
          async () => [client('a@x.test', 'Acme', [{ id: 1, name: 'SunStop' }]), client('n@x.test', 'New Co')],
        ],
      ],
    });
    await allSettled(clientUsersRequested, { scope });
    expect(scope.getState($clientChoices).map((c) => c.email)).toEqual(['a@x.test', 'n@x.test']);
    await allSettled(clientUsersCleared, { scope });
    expect(scope.getState($clientChoices)).toEqual([]);
  });
});
