import { createHash, randomBytes } from 'node:crypto';

/** A new random API key: a recognisable prefix and 32 random bytes. */
export function newApiKey(prefix = 'lo_'): string {
  return prefix + randomBytes(32).toString('hex');
}

/** What is stored instead of a key: its sha-256 (enough for 32 random bytes; no salt needed). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The form of a key that may be shown again: its last four characters. */
export function maskApiKey(key: string): string {
  return `${'*'.repeat(8)}${key.slice(-4)}`;
}
