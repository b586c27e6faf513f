import { TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS } from '../../support/backends.js';
import { signIn, sessionClient, type SessionClient } from '../../support/console-session.js';
import { startTestServer, type TestClient, type TestServer } from '../../support/test-server.js';

const totpOf = (secret: string) => new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate();
const tokenOf = (link: string) => link.split('/').at(-1)!;
const PASSWORD = 'a long enough password';

interface Entry { action: string; resourceType: string; resourceId: string; fields: string[]; actor: { kind: string; id: string | null }; via: string; ip: string | null }

/** The account's entries about `userId`'s own sign-in (sessions and the person), oldest first. */
async function signInEntries(client: TestClient, userId: string, sessionIds: string[]): Promise<Entry[]> {
  const res = await client.request('GET', '/v1/accounts/me/audit-log?limit=100');
  expect(res.status).toBe(200);
  return (res.body.entries as Entry[])
    .filter((e) => (e.resourceType === 'person' && e.resourceId === userId) || (e.resourceType === 'session' && sessionIds.includes(e.resourceId)))
    .reverse();
}

describe.each(BACKENDS)("a person's own sign-in in the audit log of each of their accounts, on $name", (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ backend });
  });
  afterAll(async () => s?.close());

  it('records sessions begun and ended, a new password, a second factor and a reset, as the person, never a value', async () => {
    // A person of both accounts: invited to a, then to b (accepted signed in).
    const invitedA = await s.a.request('POST', '/v1/accounts/me/invitations', { email: 'sec@example.com', role: 'READ_WRITE' });
    const accepted = await s.raw('POST', `/v1/invitations/${tokenOf(invitedA.body.link)}/accept`, {
      body: JSON.stringify({ name: 'Sec', password: PASSWORD }), headers: { 'content-type': 'application/json' },
    });
    expect(accepted.status, accepted.text).toBe(200);
    const first: SessionClient = sessionClient(s, accepted);
    const userId = first.view.user.id as string;
    const invitedB = await s.b.request('POST', '/v1/accounts/me/invitations', { email: 'sec@example.com', role: 'READ_ONLY' });
    expect((await first.request('POST', `/v1/invitations/${tokenOf(invitedB.body.link)}/accept`, {})).status).toBe(200);
    const sessionId = async (c: SessionClient) => (await c.request('GET', '/v1/accounts/me/access')).body.sessionId as string;
    const firstId = await sessionId(first);

    const second = await signIn(s, 'sec@example.com', PASSWORD);
    const secondId = await sessionId(second);
    expect((await second.request('PUT', '/v1/users/me/password', { currentPassword: PASSWORD, newPassword: `${PASSWORD} too` })).status).toBe(204);
    const enrol = await second.request('POST', '/v1/users/me/totp');
    expect((await second.request('POST', '/v1/users/me/totp/confirm', { code: totpOf(enrol.body.secret) })).status).toBe(204);
    expect((await second.request('DELETE', '/v1/users/me/totp', { code: totpOf(enrol.body.secret) })).status).toBe(204);
    const reset = await s.a.request('POST', `/v1/accounts/me/members/${userId}/password-reset`);
    expect((await s.raw('POST', `/v1/password-resets/${tokenOf(reset.body.link)}`, {
      body: JSON.stringify({ password: `${PASSWORD} again` }), headers: { 'content-type': 'application/json' },
    })).status).toBe(204);
    const third = await signIn(s, 'sec@example.com', `${PASSWORD} again`);
    const thirdId = await sessionId(third);
    expect((await third.request('DELETE', '/v1/session')).status).toBe(204);

    // This test's client names itself no console or CLI: everything came through REST.
    const asPerson = { actor: { kind: 'user', id: userId }, via: 'rest', ip: '127.0.0.1' };
    const inA = await signInEntries(s.a, userId, [firstId, secondId, thirdId]);
    expect(inA.map((e) => [e.action, e.resourceType, e.resourceId, e.fields])).toEqual([
      // Accepting the invitation signed the person in; b's was accepted in that session.
      ['create', 'session', firstId, []],
      ['create', 'session', secondId, []],
      ['update', 'person', userId, ['password']],
      ['update', 'person', userId, ['totp']],
      ['update', 'person', userId, ['totp']],
      ['update', 'person', userId, ['password']],
      ['create', 'session', thirdId, []],
      ['delete', 'session', thirdId, []],
    ]);
    for (const e of inA) expect(e).toMatchObject(asPerson);
    // Account b has the same from the moment the person joined it.
    const inB = await signInEntries(s.b, userId, [firstId, secondId, thirdId]);
    expect(inB.map((e) => [e.action, e.resourceType, e.resourceId])).toEqual(inA.slice(1).map((e) => [e.action, e.resourceType, e.resourceId]));
    for (const e of inB) expect(e).toMatchObject(asPerson);
    // Neither the passwords nor the TOTP secret are anywhere in the log.
    for (const client of [s.a, s.b]) {
      const text = (await client.request('GET', '/v1/accounts/me/audit-log?limit=100')).text;
      for (const secret of [PASSWORD, enrol.body.secret as string]) expect(text).not.toContain(secret);
    }
  });

  it('records every session that signing out everywhere ends', async () => {
    const owner = await signIn(s, 'owner@localhost', s.lookout.bootstrap.owner!.password!);
    const other = await signIn(s, 'owner@localhost', s.lookout.bootstrap.owner!.password!);
    const ids = await Promise.all([owner, other].map(async (c) => (await c.request('GET', '/v1/accounts/me/access')).body.sessionId as string));
    const userId = owner.view.user.id as string;
    expect((await owner.request('DELETE', '/v1/sessions')).status).toBe(204);
    const deleted = (await signInEntries(s.a, userId, ids)).filter((e) => e.action === 'delete');
    expect(deleted.map((e) => e.resourceId).sort()).toEqual([...ids].sort());
    for (const e of deleted) expect(e).toMatchObject({ actor: { kind: 'user', id: userId }, via: 'rest' });
  });
});
