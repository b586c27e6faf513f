import { createHmac, timingSafeEqual } from 'node:crypto';

/** How long a visitor who gave a private page's password stays in ("sessions last 30 days"). */
export const PAGE_SESSION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * A private page's session token: `<expiry ms>.<hmac>`, keyed by the page's stored password hash.
 * Keying by the hash means no session table, every process can check a token, and a password
 * change ends every session at once ("rotation invalidates all sessions").
 */
export function pageSessionToken(pageId: string, passwordHash: string, now: Date): string {
  const expires = now.getTime() + PAGE_SESSION_MS;
  return `${expires}.${sign(pageId, passwordHash, expires)}`;
}

/** Whether `token` is a live session of this page under its current password. */
export function isPageSession(token: string | undefined, pageId: string, passwordHash: string | null, now: Date): boolean {
  if (!token || !passwordHash) return false;
  const [expiresText, mac] = token.split('.');
  const expires = Number(expiresText);
  if (!mac || !Number.isSafeInteger(expires) || expires <= now.getTime()) return false;
  const expected = Buffer.from(sign(pageId, passwordHash, expires));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function sign(pageId: string, passwordHash: string, expires: number): string {
  return createHmac('sha256', passwordHash).update(`${pageId}|${expires}`).digest('base64url');
}
