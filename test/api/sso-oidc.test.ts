import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcSettings } from '../../src/config.js';
import { hashPassword } from '../../src/service/password-hash.js';
import { startOidcProvider, type OidcTestProvider } from '../support/oidc-provider.js';
import { browse, createCookieJar, walkToCallback, type CookieJar } from '../support/oidc-sign-in.js';
import { freePort, startTestServer, type TestServer } from '../support/test-server.js';

/** Accounts the role map governs, and one it does not. */
const TEAM_A = '0b7a4a0e-5f7c-4a51-9d3b-2a2f3a1e0001';
const TEAM_B = '0b7a4a0e-5f7c-4a51-9d3b-2a2f3a1e0002';
const HAND_INVITED = '0b7a4a0e-5f7c-4a51-9d3b-2a2f3a1e0003';
const ROLE_MAP = `ops=${TEAM_A}:ADMIN,viewers=${TEAM_A}:READ_ONLY,viewers=${TEAM_B}:READ_ONLY,owners=${TEAM_B}:OWNER`;

/** A Lookout on a known port (the provider must know its callback) with single sign-on through `provider`. */
async function startLookoutFor(port: number, issuer: string, clientSecret: string | null): Promise<TestServer> {
  const publicUrl = `http://127.0.0.1:${port}`;
  const s = await startTestServer({
    config: {
      port, publicUrl,
      oidc: oidcSettings({
        LOOKOUT_OIDC_ISSUER: issuer, LOOKOUT_OIDC_CLIENT_ID: 'lookout', LOOKOUT_OIDC_CLIENT_SECRET: clientSecret ?? undefined,
        LOOKOUT_OIDC_NAME: 'Test provider', LOOKOUT_OIDC_ROLE_MAP: ROLE_MAP,
      }),
    },
  });
  for (const [id, name] of [[TEAM_A, 'Team A'], [TEAM_B, 'Team B'], [HAND_INVITED, 'Hand-invited']] as const) await s.lookout.store.accounts.create({ id, name });
  return s;
}

/** Signs in at the provider as `login` and opens the callback in the same browser; answers its response. */
async function signIn(s: TestServer, login: string, jar: CookieJar = createCookieJar(), returnTo = '/checks'): Promise<Response> {
  const callback = await walkToCallback(jar, `${s.url}/v1/sso/oidc/start?returnTo=${encodeURIComponent(returnTo)}`, { login });
  return browse(jar, callback);
}

/** The caller's role in `accountId` with the jar's session cookie. */
async function roleIn(s: TestServer, jar: CookieJar, accountId: string): Promise<string | number> {
  const res = await fetch(`${s.url}/v1/accounts/me/access`, { headers: { cookie: jar.header(), 'x-lookout-account': accountId } });
  return res.status === 200 ? ((await res.json()) as { role: string }).role : res.status;
}

describe('single sign-on with OpenID Connect, against a real provider', () => {
  let provider: OidcTestProvider;
  let s: TestServer;

  beforeAll(async () => {
    const port = await freePort();
    provider = await startOidcProvider({ redirectUri: `http://127.0.0.1:${port}/v1/sso/oidc/callback` });
    s = await startLookoutFor(port, provider.issuer, provider.clientSecret);
  });
  afterAll(async () => {
    await s?.close();
    await provider?.close();
  });

  it('offers it to the console, by the configured name', async () => {
    const res = await s.raw('GET', '/v1/sso');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ oidc: { enabled: true, name: 'Test provider' } });
  });

  it('sends the browser to the provider with state, nonce and PKCE S256, keeping the state in a short-lived HttpOnly cookie', async () => {
    const res = await fetch(`${s.url}/v1/sso/oidc/start`, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(to.origin).toBe(provider.issuer);
    for (const p of ['state', 'nonce', 'code_challenge']) expect(to.searchParams.get(p)).toMatch(/^[\w-]{30,}$/);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('redirect_uri')).toBe(`${s.url}/v1/sso/oidc/callback`);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('lookout_sso='))!;
    expect(cookie).toContain(`lookout_sso=${to.searchParams.get('state')}`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Path=\/v1\/sso\/oidc/);
    expect(cookie).toMatch(/Max-Age=600/);
  });

  it('signs a new person in with the role their claims map to, and lands where the sign-in started', async () => {
    provider.setPerson('alice', { email: 'alice@example.test', email_verified: true, name: 'Alice', lookout_roles: ['ops'] });
    const jar = createCookieJar();
    const res = await signIn(s, 'alice', jar);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/checks');
    expect(jar.get('lookout_session')).toBeTruthy();
    expect(jar.get('lookout_sso')).toBeUndefined();
    expect(await roleIn(s, jar, TEAM_A)).toBe('ADMIN');
    expect(await roleIn(s, jar, TEAM_B)).toBe(403);
    const session = await fetch(`${s.url}/v1/session`, { headers: { cookie: jar.header() } });
    expect(await session.json()).toMatchObject({ user: { name: 'Alice', email: 'alice@example.test' }, accountId: TEAM_A, role: 'ADMIN' });
    const person = await s.lookout.store.people.findByOidc(provider.issuer, 'alice');
    expect(person?.email).toBe('alice@example.test');
  });

  it('follows changed claims on the next sign-in: roles set, governed accounts left, hand-given memberships kept', async () => {
    const person = (await s.lookout.store.people.findByOidc(provider.issuer, 'alice'))!;
    await s.lookout.store.people.upsertMembership(HAND_INVITED, person.id, 'READ_WRITE');
    // Two values naming Team A: the stronger role wins.
    provider.setPerson('alice', { email: 'alice@example.test', email_verified: true, name: 'Alice', lookout_roles: ['viewers', 'ops'] });
    let jar = createCookieJar();
    expect((await signIn(s, 'alice', jar)).headers.get('location')).toBe('/checks');
    expect(await roleIn(s, jar, TEAM_A)).toBe('ADMIN');
    expect(await roleIn(s, jar, TEAM_B)).toBe('READ_ONLY');

    provider.setPerson('alice', { email: 'alice@example.test', email_verified: true, name: 'Alice', lookout_roles: ['viewers'] });
    jar = createCookieJar();
    await signIn(s, 'alice', jar);
    expect(await roleIn(s, jar, TEAM_A)).toBe('READ_ONLY');
    expect(await roleIn(s, jar, TEAM_B)).toBe('READ_ONLY');
    expect(await roleIn(s, jar, HAND_INVITED)).toBe('READ_WRITE');

    provider.setPerson('alice', { email: 'alice@example.test', email_verified: true, name: 'Alice', lookout_roles: ['ops'] });
    jar = createCookieJar();
    await signIn(s, 'alice', jar);
    expect(await roleIn(s, jar, TEAM_A)).toBe('ADMIN');
    expect(await roleIn(s, jar, TEAM_B)).toBe(403);
    expect(await roleIn(s, jar, HAND_INVITED)).toBe('READ_WRITE');
    expect((await s.lookout.store.people.membershipsOf(person.id)).map((m) => [m.account_id, m.role]).sort()).toEqual([[TEAM_A, 'ADMIN'], [HAND_INVITED, 'READ_WRITE']].sort());
    // The audit log names the person signing in, from the console, for what their claims changed.
    const log = await fetch(`${s.url}/v1/accounts/me/audit-log?resourceType=membership&resourceId=${person.id}&limit=100`, {
      headers: { cookie: jar.header(), 'x-lookout-account': TEAM_A },
    });
    const entries = ((await log.json()) as { entries: { action: string; actor: { kind: string; id: string }; via: string; ip: string | null }[] }).entries;
    expect(entries.map((e) => e.action)).toEqual(['update', 'update', 'create']);
    for (const e of entries) expect(e).toMatchObject({ actor: { kind: 'user', id: person.id }, via: 'console', ip: '127.0.0.1' });
  });

  it('refuses a person whose claims map to no account, readably, and makes nobody', async () => {
    provider.setPerson('mallory', { email: 'mallory@example.test', email_verified: true, lookout_roles: ['everyone'] });
    const jar = createCookieJar();
    const res = await signIn(s, 'mallory', jar);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/?ssoError=SSO_NO_ACCOUNT');
    expect(jar.get('lookout_session')).toBeUndefined();
    expect(await s.lookout.store.people.findByOidc(provider.issuer, 'mallory')).toBeUndefined();
  });

  it('refuses a tampered state, a callback from another browser and a replayed callback', async () => {
    provider.setPerson('bob', { email: 'bob@example.test', email_verified: true, lookout_roles: ['viewers'] });
    const jar = createCookieJar();
    const callback = await walkToCallback(jar, `${s.url}/v1/sso/oidc/start`, { login: 'bob' });
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${tampered.searchParams.get('state')}x`);
    expect((await browse(jar, tampered.href)).headers.get('location')).toBe('/?ssoError=SSO_STATE');

    const replayJar = createCookieJar();
    const second = await walkToCallback(replayJar, `${s.url}/v1/sso/oidc/start`, { login: 'bob' });
    const state = replayJar.get('lookout_sso')!;
    // Another browser (no state cookie) cannot finish it.
    expect((await browse(createCookieJar(), second)).headers.get('location')).toBe('/?ssoError=SSO_STATE');
    expect((await browse(replayJar, second)).headers.get('location')).toBe('/');
    expect(replayJar.get('lookout_session')).toBeTruthy();
    // The same callback again, cookie and all: the login was used.
    const replay = createCookieJar();
    replay.set('lookout_sso', state);
    const again = await browse(replay, second);
    expect(again.headers.get('location')).toBe('/?ssoError=SSO_STATE');
    expect(replay.get('lookout_session')).toBeUndefined();
  });

  it.each(['https://evil.example', '//evil.example/x', '/\\evil.example'])('does not follow returnTo=%s off the server', async (returnTo) => {
    provider.setPerson('bob', { email: 'bob@example.test', email_verified: true, lookout_roles: ['viewers'] });
    const res = await signIn(s, 'bob', createCookieJar(), returnTo);
    expect(res.headers.get('location')).toBe('/');
  });

  it('answers a person who cancels at the provider with SSO_DENIED', async () => {
    const jar = createCookieJar();
    const callback = await walkToCallback(jar, `${s.url}/v1/sso/oidc/start`, { login: 'bob', deny: true });
    expect(new URL(callback).searchParams.get('error')).toBe('access_denied');
    expect((await browse(jar, callback)).headers.get('location')).toBe('/?ssoError=SSO_DENIED');
  });

  it('links a person who signs in with a password by a verified email only', async () => {
    const carol = await s.lookout.store.people.create({ email: 'carol@example.test', name: 'Carol', passwordHash: await hashPassword('a long enough password') });
    const dave = await s.lookout.store.people.create({ email: 'dave@example.test', name: 'Dave', passwordHash: await hashPassword('a long enough password') });
    provider.setPerson('dave-at-provider', { email: 'dave@example.test', email_verified: false, lookout_roles: ['viewers'] });
    expect((await signIn(s, 'dave-at-provider')).headers.get('location')).toBe('/?ssoError=SSO_EMAIL_UNVERIFIED');
    expect((await s.lookout.store.people.get(dave.id))?.oidc_subject).toBeNull();

    provider.setPerson('carol-at-provider', { email: 'Carol@example.test', email_verified: true, lookout_roles: ['viewers'] });
    const jar = createCookieJar();
    expect((await signIn(s, 'carol-at-provider', jar)).headers.get('location')).toBe('/checks');
    expect((await s.lookout.store.people.get(carol.id))?.oidc_subject).toBe('carol-at-provider');
    expect(await roleIn(s, jar, TEAM_A)).toBe('READ_ONLY');
  });
});

describe('single sign-on while the provider is down', () => {
  let provider: OidcTestProvider | undefined;
  let s: TestServer;
  let providerPort: number;

  beforeAll(async () => {
    const port = await freePort();
    providerPort = await freePort();
    s = await startLookoutFor(port, `http://127.0.0.1:${providerPort}`, null);
  });
  afterAll(async () => {
    await s?.close();
    await provider?.close();
  });

  it('starts and serves, refuses sign-ins readably, and signs in once the provider is up (public client, PKCE only)', async () => {
    expect((await fetch(`${s.url}/health`)).status).toBe(200);
    expect((await s.raw('GET', '/v1/sso')).body).toEqual({ oidc: { enabled: true, name: 'Test provider' } });
    const down = await fetch(`${s.url}/v1/sso/oidc/start`, { redirect: 'manual' });
    expect(down.status).toBe(302);
    expect(down.headers.get('location')).toBe('/?ssoError=SSO_PROVIDER_UNAVAILABLE');

    provider = await startOidcProvider({ port: providerPort, redirectUri: `${s.url}/v1/sso/oidc/callback`, clientSecret: null });
    provider.setPerson('erin', { email: 'erin@example.test', email_verified: true, lookout_roles: ['owners'] });
    const jar = createCookieJar();
    expect((await signIn(s, 'erin', jar)).headers.get('location')).toBe('/checks');
    expect(await roleIn(s, jar, TEAM_B)).toBe('OWNER');
  });
});
