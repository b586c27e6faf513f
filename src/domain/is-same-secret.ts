import { createHash, timingSafeEqual } from 'node:crypto';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether `given` is `secret`, compared in constant time: both are hashed first, so the comparison
 * takes the same time whatever length was sent.
 */
export function isSameSecret(given: string, secret: string): boolean {
  return timingSafeEqual(sha256(given), sha256(secret));
}
