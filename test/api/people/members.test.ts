import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn, sessionClient, type SessionClient } from '../../support/console-session.js';
import { startSmtpReceiver, type SmtpReceiver } from '../../support/smtp-receiver.js';
import { startTestServer, type TestServer } from '../../support/test-server.js';
import { until } from '../../support/until.js';

const tokenOf = (link: string) => link.split('/').at(-1)!;
/** The mail to `to` whose text contains `marker`, once it arrived. */
const mailTo = (smtp: SmtpReceiver, to: string, marker: string) => until(
  async () => smtp.mails.find((m) => m.to.some((t) => t.toLowerCase() === to.toLowerCase()) && m.text.includes(marker)),
  `the mail to ${to}`,
);

describe('members, invitations and roles', () => {
  let s: TestServer;
  let smtp: SmtpReceiver;
  let owner: SessionClient;

  /** Invites `email` with `role` as the owner and accepts as a new person; answers their session. */
  async function join(email: string, role: string): Promise<SessionClient> {
    const invited = await owner.request('POST', '/v1/accounts/me/invitations', { email, role });
    expect(invited.status, invited.text).toBe(201);
    const accepted = await s.raw('POST', `/v1/invitations/${tokenOf(invited.body.link)}/accept`, {
      body: JSON.stringify({ name: email.split('@')[0], password: 'a long enough password' }), headers: { 'content-type': 'application/json' },
    });
    expect(accepted.status, accepted.text).toBe(200);
    return sessionClient(s, accepted);
  }

  beforeAll(async () => {
    smtp = await startSmtpReceiver();
    s = await startTestServer({ config: { smtpUrl: smtp.url } });
    owner = await signIn(s, 'owner@localhost', s.lookout.bootstrap.owner!.password!);
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  it('invites by mail with a link that works once, and the newcomer acts with the invited role', async () => {
    const invited = await owner.request('POST', '/v1/accounts/me/invitations', { email: 'Reader@Example.com', role: 'READ_ONLY' });
    expect(invited.body).toMatchObject({ type: 'invite', email: 'Reader@Example.com', role: 'READ_ONLY', status: 'PENDING', emailed: true });
    const mail = await mailTo(smtp, 'Reader@Example.com', '/invitations/');
    expect(mail.text).toContain(invited.body.link);
    const token = tokenOf(invited.body.link);
    expect((await s.raw('GET', `/v1/invitations/${token}`)).body).toEqual({ accountName: expect.any(String), email: 'Reader@Example.com', role: 'READ_ONLY', hasAccount: false });
    const members = await owner.request('GET', '/v1/accounts/me/members?type=invite');
    expect(members.body.members.map((m: { email: string }) => m.email)).toContain('Reader@Example.com');

    const incomplete = await s.raw('POST', `/v1/invitations/${token}/accept`, { body: '{}', headers: { 'content-type': 'application/json' } });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.validation.keys.sort()).toEqual(['name', 'password']);
    const accepted = await s.raw('POST', `/v1/invitations/${token}/accept`, {
      body: JSON.stringify({ name: 'Reader', password: 'a long enough password' }), headers: { 'content-type': 'application/json' },
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ accountId: s.a.accountId, role: 'READ_ONLY', user: { email: 'Reader@Example.com' } });
    const reader = sessionClient(s, accepted);
    expect((await reader.request('GET', '/v1/checks')).status).toBe(200);
    const write = await reader.request('POST', '/v1/snippets', { name: 'nope', script: '//' });
    expect(write.status).toBe(403);
    expect(write.body).toMatchObject({ message: 'Your role (Read Only) may not do this: it needs Read & Write or above', attributes: { code: 'ROLE_FORBIDS', role: 'READ_ONLY', permission: 'write' } });
    expect((await s.raw('POST', `/v1/invitations/${token}/accept`, { body: JSON.stringify({ name: 'Again', password: 'a long enough password' }), headers: { 'content-type': 'application/json' } })).status).toBe(404);
  });

  it('changes a role with effect on the next request, of sessions and personal keys alike', async () => {
    const writer = await join('writer@example.com', 'READ_RUN');
    const key = await writer.request('POST', '/v1/accounts/me/api-keys', { name: 'laptop', kind: 'personal' });
    expect(key.status).toBe(201);
    expect(key.body).toMatchObject({ kind: 'personal', role: 'READ_RUN', userId: writer.view.user.id });
    const byKey = (method: string, path: string, body?: unknown) => s.raw(method, path, { body: body === undefined ? undefined : JSON.stringify(body), headers: { authorization: `Bearer ${key.body.key}`, 'content-type': 'application/json' } });
    expect((await byKey('POST', '/v1/snippets', { name: 'x', script: '//' })).status).toBe(403);
    expect((await byKey('GET', '/v1/accounts/me/access')).body).toMatchObject({ role: 'READ_RUN', userId: writer.view.user.id, label: 'writer@example.com (key laptop)' });

    const promoted = await owner.request('PUT', `/v1/accounts/me/members/${writer.view.user.id}`, { role: 'READ_WRITE' });
    expect(promoted.body).toMatchObject({ type: 'member', userId: writer.view.user.id, role: 'READ_WRITE', status: 'ACTIVE' });
    expect((await writer.request('POST', '/v1/snippets', { name: 'by session', script: '//' })).status).toBe(201);
    expect((await byKey('POST', '/v1/snippets', { name: 'by key', script: '//' })).status).toBe(201);

    // Not a manager: no service keys, no invitations, no role changes.
    expect((await writer.request('POST', '/v1/accounts/me/api-keys', { name: 'ci', kind: 'service', role: 'READ_ONLY' })).body.attributes.code).toBe('ROLE_FORBIDS');
    expect((await writer.request('POST', '/v1/accounts/me/invitations', { email: 'x@example.com', role: 'READ_ONLY' })).status).toBe(403);

    const removed = await owner.request('DELETE', `/v1/accounts/me/members/${writer.view.user.id}`);
    expect(removed.status).toBe(204);
    expect((await writer.request('GET', '/v1/checks')).status).toBe(403);
    expect((await byKey('GET', '/v1/checks')).status).toBe(401);
  });

  it('lets managers grant up to their own role; only owners touch owners; the last owner stays', async () => {
    const admin = await join('admin@example.com', 'ADMIN');
    const makeOwner = await admin.request('POST', '/v1/accounts/me/invitations', { email: 'boss@example.com', role: 'OWNER' });
    expect(makeOwner.status).toBe(403);
    expect((await admin.request('PUT', `/v1/accounts/me/members/${owner.view.user.id}`, { role: 'READ_ONLY' })).status).toBe(403);
    const serviceKey = await admin.request('POST', '/v1/accounts/me/api-keys', { name: 'ci', role: 'READ_WRITE', expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
    expect(serviceKey.body).toMatchObject({ kind: 'service', role: 'READ_WRITE', userId: null, expiresAt: expect.any(String) });
    expect((await admin.request('POST', '/v1/accounts/me/api-keys', { name: 'root', role: 'OWNER' })).status).toBe(403);
    // A person who names no kind and no role gets a key of their own.
    expect((await admin.request('POST', '/v1/accounts/me/api-keys', { name: 'mine' })).body).toMatchObject({ kind: 'personal', role: 'ADMIN', userId: admin.view.user.id });

    const lastOwner = await owner.request('PUT', `/v1/accounts/me/members/${owner.view.user.id}`, { role: 'ADMIN' });
    expect(lastOwner.status).toBe(409);
    expect(lastOwner.body.attributes).toEqual({ code: 'LAST_OWNER' });
    expect((await owner.request('DELETE', `/v1/accounts/me/members/${owner.view.user.id}`)).body.attributes).toEqual({ code: 'LAST_OWNER' });
  });

  it('refuses an expired key, and a key made to expire in the past', async () => {
    const past = await owner.request('POST', '/v1/accounts/me/api-keys', { name: 'old', expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.status).toBe(400);
    expect(past.body.validation.keys).toEqual(['expiresAt']);
    const soon = await owner.request('POST', '/v1/accounts/me/api-keys', { name: 'soon', expiresAt: new Date(Date.now() + 60_000).toISOString() });
    await s.lookout.store.db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [soon.body.id]);
    expect((await s.raw('GET', '/v1/checks', { headers: { authorization: `Bearer ${soon.body.key}` } })).status).toBe(401);
  });

  it('lets a person of one account join another and switch between them', async () => {
    const other = await s.b.request('POST', '/v1/accounts/me/invitations', { email: 'owner@localhost', role: 'READ_ONLY' });
    expect(other.status).toBe(201);
    const token = tokenOf(other.body.link);
    expect((await s.raw('GET', `/v1/invitations/${token}`)).body.hasAccount).toBe(true);
    const signedOut = await s.raw('POST', `/v1/invitations/${token}/accept`, { body: '{}', headers: { 'content-type': 'application/json' } });
    expect(signedOut.status).toBe(409);
    expect(signedOut.body.attributes).toEqual({ code: 'SIGN_IN_FIRST' });
    const noCsrf = await s.raw('POST', `/v1/invitations/${token}/accept`, { body: '{}', headers: { 'content-type': 'application/json', cookie: owner.cookie } });
    expect(noCsrf.status).toBe(403);
    const joined = await owner.request('POST', `/v1/invitations/${token}/accept`, {});
    expect(joined.status).toBe(200);
    expect(joined.body.accountId).toBe(s.b.accountId);
    expect(joined.body.accounts.map((a: { id: string; role: string }) => [a.id, a.role]).sort()).toEqual([[s.a.accountId, 'OWNER'], [s.b.accountId, 'READ_ONLY']].sort());
    const both = sessionClient(s, joined);
    expect((await both.request('GET', '/v1/accounts')).body.map((a: { id: string }) => a.id)).toEqual([s.b.accountId, s.a.accountId]);
    // One request may name the other account; the session's own account changes with a switch.
    expect((await both.request('GET', '/v1/accounts/me/access', undefined, { 'x-lookout-account': s.a.accountId })).body.role).toBe('OWNER');
    const switched = await both.request('PUT', '/v1/session/account', { accountId: s.a.accountId });
    expect(switched.body).toMatchObject({ accountId: s.a.accountId, role: 'OWNER' });
    expect((await both.request('GET', '/v1/accounts/me')).body.id).toBe(s.a.accountId);
    const stranger = await both.request('PUT', '/v1/session/account', { accountId: '00000000-0000-4000-8000-000000000000' });
    expect(stranger.status).toBe(403);
  });

  it('resets a password by mailed link, once, ending every session of the person', async () => {
    const person = await join('forgetful@example.com', 'READ_ONLY');
    expect((await s.raw('POST', '/v1/password-resets', { body: JSON.stringify({ email: 'nobody@example.com' }), headers: { 'content-type': 'application/json' } })).status).toBe(204);
    expect((await s.raw('POST', '/v1/password-resets', { body: JSON.stringify({ email: 'forgetful@example.com' }), headers: { 'content-type': 'application/json' } })).status).toBe(204);
    const mail = await mailTo(smtp, 'forgetful@example.com', '/reset-password/');
    expect(smtp.mails.some((m) => m.to.includes('nobody@example.com'))).toBe(false);
    const link = /https?:\/\/\S+\/reset-password\/[A-Za-z0-9_-]+/.exec(mail.text)![0];
    const reset = (password: string) => s.raw('POST', `/v1/password-resets/${tokenOf(link)}`, { body: JSON.stringify({ password }), headers: { 'content-type': 'application/json' } });
    expect((await reset('short')).status).toBe(400);
    expect((await reset('a brand new password')).status).toBe(204);
    expect((await reset('another new password')).status).toBe(404);
    expect((await person.request('GET', '/v1/checks')).status).toBe(401);
    await signIn(s, 'forgetful@example.com', 'a brand new password');
  });

  it('gives admins a reset link to hand over when no mail can be sent', async () => {
    const person = await join('nomail@example.com', 'READ_ONLY');
    const made = await owner.request('POST', `/v1/accounts/me/members/${person.view.user.id}/password-reset`);
    expect(made.status).toBe(201);
    expect(made.body.link).toMatch(/\/reset-password\/[A-Za-z0-9_-]{43}$/);
    expect((await s.raw('POST', `/v1/password-resets/${tokenOf(made.body.link)}`, { body: JSON.stringify({ password: 'handed over password' }), headers: { 'content-type': 'application/json' } })).status).toBe(204);
    await signIn(s, 'nomail@example.com', 'handed over password');
  });

  it('lists members for the checkly CLI with their real roles', async () => {
    const res = await s.a.request('GET', '/v1/accounts/me/members?type=member');
    const roles = Object.fromEntries(res.body.members.map((m: { email: string; role: string }) => [m.email, m.role]));
    expect(roles).toMatchObject({ 'owner@localhost': 'OWNER', 'Reader@Example.com': 'READ_ONLY', 'admin@example.com': 'ADMIN' });
    expect(roles['writer@example.com']).toBeUndefined();
    expect(Object.keys(roles)).toContain('nomail@example.com');
    const admins = await s.a.request('GET', '/v1/accounts/me/members?role=ADMIN');
    expect(admins.body.members.map((m: { email: string }) => m.email)).toEqual(['admin@example.com']);
  });

  it('records who changed members and roles in the audit log, once each, without tokens', async () => {
    const log = await owner.request('GET', '/v1/accounts/me/audit-log?resourceType=membership&limit=100');
    expect(log.status).toBe(200);
    const entries = log.body.entries;
    const writer = (await s.lookout.store.db.query<{ id: string }>(`SELECT id FROM users WHERE email = 'writer@example.com'`))[0]!.id;
    const ofWriter = entries.filter((e: { resourceId: string }) => e.resourceId === writer).map((e: { action: string; actor: { label: string }; via: string; fields: string[] }) => [e.action, e.actor.label, e.fields]);
    expect(ofWriter).toEqual([
      ['delete', 'owner@localhost', expect.any(Array)],
      ['update', 'owner@localhost', ['role']],
      ['create', 'writer@example.com', expect.any(Array)],
    ]);
    expect(JSON.stringify(await s.lookout.store.db.query('SELECT * FROM audit_log'))).not.toMatch(/token_hash|[A-Za-z0-9_-]{43}/);
  });

  it('lets the account\'s last key go once an owner can sign in: the account stays reachable', async () => {
    const keys = (await owner.request('GET', '/v1/accounts/me/api-keys')).body as Array<{ id: string }>;
    for (const key of keys) expect((await owner.request('DELETE', `/v1/accounts/me/api-keys/${key.id}`)).status).toBe(204);
    expect((await owner.request('GET', '/v1/accounts/me/api-keys')).body).toEqual([]);
    expect((await owner.request('GET', '/v1/checks')).status).toBe(200);
  });
});
