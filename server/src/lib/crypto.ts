import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/** scrypt, a memory-hard KDF from node:crypto (no native addon). Cost 2^15 takes ~100 ms here. */
const PARAMS = { N: 2 ** 15, r: 8, p: 1, keylen: 32 };

export async function hashPassword(password: string, params = PARAMS): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password.normalize('NFKC'), salt, params.keylen, {
    N: params.N,
    r: params.r,
    p: params.p,
    maxmem: 256 * params.N * params.r,
  });
  return `scrypt$${params.N}$${params.r}$${params.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [algo, n, r, p, salt, hash] = stored.split('$');
  if (algo !== 'scrypt' || !n || !r || !p || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 256 * Number(n) * Number(r),
  });
  return crypto.timingSafeEqual(key, expected);
}

/** A hash computed once, so that a login for an unknown email costs as much as one for a known email. */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  return (dummyHash ??= hashPassword('not-a-real-password'));
}

/** Random opaque key (API token, reset token, device secret). */
export function randomKey(bytes = 20): string {
  return crypto.randomBytes(bytes).toString('hex');
}

/** Keyed hash under which keys are stored: a stolen table alone does not let anyone sign in. */
export function keyHash(secretKey: string, key: string): string {
  return crypto.createHmac('sha256', secretKey).update(key).digest('hex');
}
