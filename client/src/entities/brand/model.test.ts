import type { BrandAnswer } from '@fleet/shared';
import { describe, expect, it } from 'vitest';
import { clientChoices } from './model';

const brand = (id: number, clients: { email: string; company: string }[]) =>
  ({ id, name: `B${id}`, clients: clients.map((c, i) => ({ id: i, name: c.company, ...c })) }) as unknown as BrandAnswer;

describe('client choices', () => {
  it('lists each client once, from every brand, by company', () => {
    const choices = clientChoices([brand(1, [{ email: 'z@x.test', company: 'Zed' }, { email: 'a@x.test', company: 'Acme' }]), brand(2, [{ email: 'a@x.test', company: 'Acme' }])]);
    expect(choices.map((c) => [c.email, c.label])).toEqual([
      ['a@x.test', 'Acme'],
      ['z@x.test', 'Zed'],
    ]);
  });

  it('adds the email when two clients share a company name', () => {
    const choices = clientChoices([brand(1, [{ email: 'b@x.test', company: 'Acme' }, { email: 'a@x.test', company: 'ACME' }, { email: 'c@x.test', company: '' }])]);
    expect(choices.map((c) => c.label)).toEqual(['ACME (a@x.test)', 'Acme (b@x.test)', 'c@x.test']);
  });
});
