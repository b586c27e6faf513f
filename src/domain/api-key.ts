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

/**
 * The start of a key that may be shown again so people can tell keys apart: `lo_` and 8 of its
 * 64 hex characters (32 bits of 256: nothing an attacker can use).
 */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, key.startsWith('lo_') ? 11 : 4);
}

/** Everything stored of a new key: never the key itself. */
export function apiKeyRecord(key: string): { keyHash: string; maskedKey: string; prefix: string } {
  return { keyHash: hashApiKey(key), maskedKey: maskApiKey(key), prefix: apiKeyPrefix(key) };
}

/** Longest name of an API key. */
export const API_KEY_NAME_MAX = 100;
