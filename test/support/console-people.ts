import type { Page } from 'playwright-core';
import { TOTP } from 'otpauth';
import type { TestClient } from './test-server.js';

/** A person made through an invitation: their sign-in and the role they were invited with. */
export interface TestPerson {
  email: string;
  password: string;
  name: string;
  role: string;
}

/** The token at the end of an invitation or password-reset link. */
export function tokenOfLink(link: string): string {
  return decodeURIComponent(new URL(link, 'http://x').pathname.split('/').filter(Boolean).pop()!);
}

/**
 * Makes a person of `owner`'s account with `role`, the way people join: the owner's key invites
 * them (`POST /v1/accounts/me/invitations`) and they accept the link with a name and a password.
 */
export async function invitePerson(url: string, owner: TestClient, person: TestPerson): Promise<void> {
  const invited = await owner.request('POST', '/v1/accounts/me/invitations', { email: person.email, role: person.role });
  if (invited.status !== 201) throw new Error(`inviting ${person.email}: HTTP ${invited.status} ${JSON.stringify(invited.body)}`);
  const accepted = await fetch(`${url}/v1/invitations/${encodeURIComponent(tokenOfLink(invited.body.link))}/accept`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: person.name, password: person.password }),
  });
  if (accepted.status !== 200) throw new Error(`accepting for ${person.email}: HTTP ${accepted.status} ${await accepted.text()}`);
}

/** A person's session outside the browser: its cookie and CSRF token, for requests made as them. */
export interface ApiSession {
  request(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
}

/** Signs `person` in over REST (`POST /v1/session`), for set-up a test does as them (turning on TOTP). */
export async function apiSignIn(url: string, person: Pick<TestPerson, 'email' | 'password'>, totp?: string): Promise<ApiSession> {
  const res = await fetch(`${url}/v1/session`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: person.email, password: person.password, ...(totp ? { totp } : {}) }),
  });
  if (res.status !== 200) throw new Error(`signing in ${person.email}: HTTP ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const { csrfToken } = await res.json() as { csrfToken: string };
  return {
    async request(method, path, body) {
      const answer = await fetch(`${url}${path}`, {
        method,
        headers: { cookie, 'x-lookout-csrf': csrfToken, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await answer.text();
      return { status: answer.status, body: text ? JSON.parse(text) : null };
    },
  };
}

/** The code an authenticator app shows now for `secret` (base32), as Lookout checks it (SHA-1, 6 digits, 30 s). */
export function totpCode(secret: string): string {
  return new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate();
}

/**
 * A code no sign-in has spent yet (Lookout takes each 30-second step once): the next step's, which
 * Lookout accepts already (one step of clock drift), so nothing waits for the clock. `used` is the
 * code spent before, which it can only equal by a one-in-a-million chance.
 */
export async function freshTotpCode(secret: string, used: string): Promise<string> {
  const next = new TOTP({ secret, digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: Date.now() + 30_000 });
  if (next === used) throw new Error('the next TOTP step happens to have the spent code: run the test again');
  return next;
}

/** Signs in on the console's sign-in page with an email and a password, and waits until signed in unless `expectCode`. */
export async function signInWithPassword(tab: Page, url: string, person: Pick<TestPerson, 'email' | 'password'>, expectCode = false): Promise<void> {
  await tab.goto(`${url}/`);
  await tab.getByLabel('Email').fill(person.email);
  await tab.getByLabel('Password').fill(person.password);
  await tab.getByRole('button', { name: 'Sign in', exact: true }).click();
  if (expectCode) await tab.getByLabel('Authentication code').waitFor();
  else await tab.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
}
