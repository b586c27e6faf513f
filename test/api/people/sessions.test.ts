import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieOf, signIn, trySignIn } from '../../support/console-session.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';

const totpOf = (secret: string) => new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate();

describe('signing in to the console (/v1/session)', () => {
  let s: TestServer;
  let ownerPassword: string;
  beforeAll(async () => {
    s = await startTestServer();
    ownerPassword = s.lookout.bootstrap.owner!.password!;
  });
  afterAll(async () => s?.close());

  it('makes the first start\'s owner sign in with the generated password', async () => {
    expect(s.lookout.bootstrap.owner).toEqual({ email: 'owner@localhost', password: expect.stringMatching(/^\S{20}$/) });
    const res = await trySignIn(s, { email: 'OWNER@localhost', password: ownerPassword });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/^lookout_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Expires=/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body).toEqual({
      user: { id: expect.any(String), name: 'Admin', email: 'owner@localhost', totpEnabled: false },
      accounts: [{ id: s.a.accountId, name: expect.any(String), role: 'OWNER' }],
      accountId: s.a.accountId, role: 'OWNER', csrfToken: expect.any(String),
    });
  });

  it('refuses a wrong password and an unknown address alike, without telling which', async () => {
    const wrong = await trySignIn(s, { email: 'owner@localhost', password: 'not the password' });
    const unknown = await trySignIn(s, { email: 'nobody@example.com', password: 'not the password' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ statusCode: 401, message: 'Wrong email or password', attributes: { code: 'INVALID_CREDENTIALS' } });
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('refuses malformed sign-ins with the keys named', async () => {
    const res = await trySignIn(s, { email: 'not-an-address', password: '' });
    expect(res.status).toBe(400);
    expect(res.body.validation.keys.sort()).toEqual(['email', 'password']);
  });

  it('authenticates requests with the cookie, and writes only with the CSRF token', async () => {
    const owner = await signIn(s, 'owner@localhost', ownerPassword);
    expect((await owner.request('GET', '/v1/accounts/me')).body.id).toBe(s.a.accountId);
    expect((await owner.request('GET', '/v1/accounts/me/access')).body).toEqual({
      accountId: s.a.accountId, role: 'OWNER', userId: owner.view.user.id, keyId: null, sessionId: expect.any(String), label: 'owner@localhost',
    });
    const snippet = { name: 'csrf', script: '// nothing' };
    const withoutToken = await owner.request('POST', '/v1/snippets', snippet, { 'x-lookout-csrf': '' });
    expect(withoutToken.status).toBe(403);
    expect(withoutToken.body.attributes).toEqual({ code: 'CSRF' });
    const wrongToken = await owner.request('GET', '/v1/snippets', undefined, { 'x-lookout-csrf': 'guessed' });
    expect(wrongToken.status).toBe(403);
    const made = await owner.request('POST', '/v1/snippets', snippet);
    expect(made.status).toBe(201);
    // A read needs no token: assets load in <img> and <video> tags, which send none.
    expect((await s.raw('GET', '/v1/snippets', { headers: { cookie: owner.cookie } })).status).toBe(200);
  });

  it('signs out: the cookie is cleared and the session refused from then on', async () => {
    const owner = await signIn(s, 'owner@localhost', ownerPassword);
    const out = await owner.request('DELETE', '/v1/session');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^lookout_session=; .*Expires=Thu, 01 Jan 1970/);
    const after = await owner.request('GET', '/v1/accounts/me');
    expect(after.status).toBe(401);
    expect(after.body.attributes).toEqual({ code: 'SESSION_ENDED' });
  });

  it('signs out everywhere: every session of the person ends, other people\'s stay', async () => {
    const first = await signIn(s, 'owner@localhost', ownerPassword);
    const second = await signIn(s, 'owner@localhost', ownerPassword);
    expect((await second.request('DELETE', '/v1/sessions')).status).toBe(204);
    expect((await first.request('GET', '/v1/accounts/me')).status).toBe(401);
    expect((await second.request('GET', '/v1/accounts/me')).status).toBe(401);
    expect((await s.a.request('GET', '/v1/accounts/me')).status).toBe(200);
  });

  it('answers session routes to keys with a coded refusal', async () => {
    const res = await s.a.request('GET', '/v1/session');
    expect(res.status).toBe(403);
    expect(res.body.attributes).toEqual({ code: 'NEEDS_SESSION' });
    expect((await s.a.request('DELETE', '/v1/sessions')).body.attributes).toEqual({ code: 'NEEDS_PERSON' });
  });

  it('asks for the second factor once it is on, and only takes the current code', async () => {
    const owner = await signIn(s, 'owner@localhost', ownerPassword);
    const enrol = await owner.request('POST', '/v1/users/me/totp');
    expect(enrol.status).toBe(200);
    expect(enrol.body.uri).toMatch(/^otpauth:\/\/totp\/Lookout:owner%40localhost\?/);
    // Not on until a code proves the secret is held.
    expect((await trySignIn(s, { email: 'owner@localhost', password: ownerPassword })).status).toBe(200);
    expect((await owner.request('POST', '/v1/users/me/totp/confirm', { code: '000000' })).status).toBe(400);
    expect((await owner.request('POST', '/v1/users/me/totp/confirm', { code: totpOf(enrol.body.secret) })).status).toBe(204);

    const missing = await trySignIn(s, { email: 'owner@localhost', password: ownerPassword });
    expect(missing.status).toBe(401);
    expect(missing.body.attributes).toEqual({ code: 'TOTP_REQUIRED' });
    expect(missing.headers.get('set-cookie')).toBeNull();
    const wrong = await trySignIn(s, { email: 'owner@localhost', password: ownerPassword, totp: '123456' });
    expect(wrong.body.attributes).toEqual({ code: totpOf(enrol.body.secret) === '123456' ? 'TOTP_REQUIRED' : 'TOTP_INVALID' });
    const code = totpOf(enrol.body.secret);
    const withCode = await signIn(s, 'owner@localhost', ownerPassword, code);
    expect(withCode.view.user.totpEnabled).toBe(true);
    // A code signs in once: an overheard one is no use, however long it stays current.
    const replayed = await trySignIn(s, { email: 'owner@localhost', password: ownerPassword, totp: code });
    expect(replayed.status).toBe(401);
    expect(replayed.body).toMatchObject({ message: 'That code was used already: wait for the next one', attributes: { code: 'TOTP_INVALID' } });
    // A wrong password with a right code is still just a wrong password.
    expect((await trySignIn(s, { email: 'owner@localhost', password: 'wrong password', totp: totpOf(enrol.body.secret) })).body.attributes).toEqual({ code: 'INVALID_CREDENTIALS' });

    expect((await withCode.request('DELETE', '/v1/users/me/totp', { code: '000001' })).status).toBe(400);
    expect((await withCode.request('DELETE', '/v1/users/me/totp', { code: totpOf(enrol.body.secret) })).status).toBe(204);
    expect((await trySignIn(s, { email: 'owner@localhost', password: ownerPassword })).status).toBe(200);
  });

  it('changes the password: the old one stops working and the person\'s other sessions end', async () => {
    const here = await signIn(s, 'owner@localhost', ownerPassword);
    const elsewhere = await signIn(s, 'owner@localhost', ownerPassword);
    const wrong = await here.request('PUT', '/v1/users/me/password', { currentPassword: 'nope nope nope', newPassword: 'a new long password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.validation.keys).toEqual(['currentPassword']);
    const short = await here.request('PUT', '/v1/users/me/password', { currentPassword: ownerPassword, newPassword: 'short' });
    expect(short.body.validation.keys).toEqual(['newPassword']);
    expect((await here.request('PUT', '/v1/users/me/password', { currentPassword: ownerPassword, newPassword: 'a new long password' })).status).toBe(204);
    expect((await here.request('GET', '/v1/accounts/me')).status).toBe(200);
    expect((await elsewhere.request('GET', '/v1/accounts/me')).status).toBe(401);
    expect((await trySignIn(s, { email: 'owner@localhost', password: ownerPassword })).status).toBe(401);
    await signIn(s, 'owner@localhost', 'a new long password');
    expect((await here.request('PUT', '/v1/users/me/password', { currentPassword: 'a new long password', newPassword: ownerPassword })).status).toBe(204);
  });

  it('makes an address wait after ten failed sign-ins', async () => {
    const email = 'guessed@example.com';
    for (let i = 0; i < 10; i++) expect((await trySignIn(s, { email, password: `guess number ${i}` })).status).toBe(401);
    const blocked = await trySignIn(s, { email, password: 'one more guess' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('never stores the cookie\'s token or the password as they are', async () => {
    const owner = await signIn(s, 'owner@localhost', ownerPassword);
    const token = cookieOf({ headers: new Headers({ 'set-cookie': `${owner.cookie}; Path=/` }) } as never).split('=')[1]!;
    const dump = JSON.stringify(await s.lookout.store.db.query('SELECT * FROM sessions')) + JSON.stringify(await s.lookout.store.db.query('SELECT * FROM users'));
    expect(dump).not.toContain(token);
    expect(dump).not.toContain(ownerPassword);
    expect(dump).toContain('$argon2id$');
  });
});
