import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost (N = 2^14, r = 8, p = 1: about 16 MiB and tens of milliseconds per check). */
const COST: ScryptOptions = { N: 16_384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** A salted scrypt hash of a page password, with its parameters: `scrypt$N$r$p$salt$key` (base64). */
export async function hashPagePassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Compared against when a page has no password, so that answering "no" takes as long as checking one. */
const NO_PASSWORD = `scrypt$${COST.N}$${COST.r}$${COST.p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;

/**
 * Whether `password` is the one `stored` was made from. The keys are compared in constant time, and
 * a missing or unreadable hash is checked against a dummy one, so the time taken tells nothing.
 */
export async function pagePasswordMatches(password: string, stored: string | null | undefined): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  const usable = parts.length === 6 && parts[0] === 'scrypt';
  const [, n, r, p, salt, key] = (usable ? parts : NO_PASSWORD.split('$')) as [string, string, string, string, string, string];
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p), maxmem: COST.maxmem });
  return usable && expected.length === actual.length && timingSafeEqual(expected, actual);
}
