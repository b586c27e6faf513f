import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionClient } from '../support/console-session.js';
import { gql, gqlData } from '../support/graphql.js';
import { startTestServer, type TestClient, type TestServer } from '../support/test-server.js';

const MEMBER = '{ id type user { id name email } invitationId email role status mfaEnabled ssoEnabled createdAt updatedAt expiresAt }';
const tokenOf = (link: string) => link.split('/').at(-1)!;

/** A client of account A acting with `key` (a service or personal key). */
const withKey = (s: TestServer, key: string): TestClient => ({
  ...s.a, apiKey: key, request: (method, path, body, headers = {}) => s.a.request(method, path, body, { authorization: `Bearer ${key}`, ...headers }),
});

/** The codes of a refused operation: `extensions.code` and REST's own `extensions.reason`. */
const refusal = (res: { errors?: { extensions?: Record<string, unknown> }[] }) => res.errors?.map((e) => [e.extensions?.code, e.extensions?.reason]);

describe('GraphQL members, invitations, access and key kinds', () => {
  let s: TestServer;
  /** Invites `email` as the owner key over GraphQL, accepts as a new person; answers their id and session's answer. */
  let join: (email: string, role: string) => Promise<{ userId: string; accepted: Awaited<ReturnType<TestServer['raw']>> }>;

  beforeAll(async () => {
    s = await startTestServer();
    join = async (email, role) => {
      const invited = await gqlData(s.a, `mutation($i: InviteMemberInput!) { inviteMember(input: $i) { link userErrors { field } } }`, { i: { email, role } });
      const accepted = await s.raw('POST', `/v1/invitations/${tokenOf(invited.inviteMember.link)}/accept`, {
        body: JSON.stringify({ name: email.split('@')[0], password: 'a long enough password' }), headers: { 'content-type': 'application/json' },
      });
      expect(accepted.status, accepted.text).toBe(200);
      return { userId: accepted.body.user.id, accepted };
    };
  });
  afterAll(async () => s?.close());

  it("answers the caller's access", async () => {
    const { access } = await gqlData(s.a, '{ access { accountId role userId keyId sessionId label } }');
    expect(access).toEqual({ accountId: s.a.accountId, role: 'OWNER', userId: null, keyId: expect.any(String), sessionId: null, label: expect.any(String) });
  });

  it('invites (the link once), changes a role, issues a reset link and removes a member, as the owner', async () => {
    const invited = await gqlData(s.a, `mutation($i: InviteMemberInput!) { inviteMember(input: $i) { invitation ${MEMBER} link emailed userErrors { field } } }`,
      { i: { email: 'gql-invitee@example.com', role: 'READ_RUN' } });
    const { invitation, link, emailed, userErrors } = invited.inviteMember;
    expect(userErrors).toEqual([]);
    expect(link).toMatch(/\/invitations\/[A-Za-z0-9_-]{20,}$/);
    expect(emailed).toBe(false);
    expect(invitation).toMatchObject({ type: 'INVITATION', user: null, invitationId: expect.any(String), email: 'gql-invitee@example.com', role: 'READ_RUN', status: 'PENDING', mfaEnabled: false, expiresAt: expect.any(String) });
    const listed = await gqlData(s.a, `{ members(first: 50, filter: {type: INVITATION}) { nodes ${MEMBER} } }`);
    expect(listed.members.nodes).toContainEqual(invitation);
    expect(JSON.stringify(listed)).not.toContain(tokenOf(link));

    const { userId } = await join('gql-member@example.com', 'READ_RUN');
    const promoted = await gqlData(s.a, `mutation($u: ID!) { updateMemberRole(userId: $u, role: READ_WRITE) { member ${MEMBER} userErrors { field } } }`, { u: userId });
    expect(promoted.updateMemberRole.member).toMatchObject({ type: 'MEMBER', user: { id: userId, email: 'gql-member@example.com' }, invitationId: null, role: 'READ_WRITE', status: 'ACTIVE', expiresAt: null });
    // The Member's global id names the same person.
    const byGlobalId = await gqlData(s.a, 'mutation($u: ID!) { createMemberResetLink(userId: $u) { link expiresAt userErrors { field } } }', { u: promoted.updateMemberRole.member.id });
    expect(byGlobalId.createMemberResetLink).toEqual({ link: expect.stringContaining('/'), expiresAt: expect.any(String), userErrors: [] });
    const writers = await gqlData(s.a, '{ members(filter: {role: READ_WRITE, status: ACTIVE, search: "GQL-MEMBER"}) { nodes { user { id } } } }');
    expect(writers.members.nodes).toEqual([{ user: { id: userId } }]);

    const removed = await gqlData(s.a, 'mutation($u: ID!) { removeMember(userId: $u) { removedUserId userErrors { field } } }', { u: userId });
    expect(removed.removeMember).toEqual({ removedUserId: userId, userErrors: [] });
    const after = await gqlData(s.a, '{ members(first: 100, filter: {type: MEMBER}) { nodes { user { id } } } }');
    expect(after.members.nodes).not.toContainEqual({ user: { id: userId } });
    const again = await gql(s.a, 'mutation($u: ID!) { removeMember(userId: $u) { removedUserId } }', { u: userId });
    expect(refusal(again)).toEqual([['NOT_FOUND', undefined]]);

    const revoked = await gqlData(s.a, 'mutation($id: ID!) { revokeInvitation(id: $id) { revokedId userErrors { field } } }', { id: invitation.id });
    expect(revoked.revokeInvitation).toEqual({ revokedId: invitation.invitationId, userErrors: [] });
    expect((await s.raw('GET', `/v1/invitations/${tokenOf(link)}`)).status).toBe(404);
  });

  it('pages members with cursors', async () => {
    for (const n of [1, 2, 3]) await gqlData(s.a, `mutation { inviteMember(input: {email: "page${n}@example.com", role: READ_ONLY}) { userErrors { field } } }`);
    const first = await gqlData(s.a, '{ members(first: 2, filter: {search: "page"}) { nodes { email } pageInfo { hasNextPage endCursor } } }');
    expect(first.members.nodes).toHaveLength(2);
    expect(first.members.pageInfo.hasNextPage).toBe(true);
    const next = await gqlData(s.a, 'query($a: String) { members(first: 2, after: $a, filter: {search: "page"}) { nodes { email } pageInfo { hasNextPage } } }', { a: first.members.pageInfo.endCursor });
    expect([...first.members.nodes, ...next.members.nodes].map((m: { email: string }) => m.email).sort()).toEqual(['page1@example.com', 'page2@example.com', 'page3@example.com']);
    expect(next.members.pageInfo.hasNextPage).toBe(false);
  });

  it('refuses the last owner (LAST_OWNER) and a member invited again (ALREADY_MEMBER) as CONFLICT with the reason, bad input as userErrors', async () => {
    const owners = await gqlData(s.a, '{ members(filter: {role: OWNER, type: MEMBER}) { nodes { user { id email } } } }');
    expect(owners.members.nodes).toHaveLength(1);
    const owner = owners.members.nodes[0].user;
    const demote = await gql(s.a, 'mutation($u: ID!) { updateMemberRole(userId: $u, role: ADMIN) { member { role } } }', { u: owner.id });
    expect(refusal(demote)).toEqual([['CONFLICT', 'LAST_OWNER']]);
    expect(demote.data).toBeNull();
    const remove = await gql(s.a, 'mutation($u: ID!) { removeMember(userId: $u) { removedUserId } }', { u: owner.id });
    expect(refusal(remove)).toEqual([['CONFLICT', 'LAST_OWNER']]);
    const twice = await gql(s.a, 'mutation($e: String!) { inviteMember(input: {email: $e, role: READ_ONLY}) { link } }', { e: owner.email });
    expect(refusal(twice)).toEqual([['CONFLICT', 'ALREADY_MEMBER']]);

    const bad = await gqlData(s.a, 'mutation { inviteMember(input: {email: "not an address", role: READ_ONLY}) { invitation { id } link emailed userErrors { field code } } }');
    expect(bad.inviteMember).toEqual({ invitation: null, link: null, emailed: null, userErrors: [{ field: 'email', code: 'BAD_USER_INPUT' }] });
    const unknown = await gql(s.a, 'mutation($id: ID!) { revokeInvitation(id: $id) { revokedId } }', { id: randomUUID() });
    expect(refusal(unknown)).toEqual([['NOT_FOUND', undefined]]);
    const notAnId = await gql(s.a, 'mutation { updateMemberRole(userId: "nobody", role: ADMIN) { member { id } } }');
    expect(refusal(notAnId)).toEqual([['NOT_FOUND', undefined]]);
  });

  it('lets a Read Only service key read members and its access, and refuses it every write as FORBIDDEN', async () => {
    const made = await s.a.request('POST', '/v1/accounts/me/api-keys', { name: 'gql reader', role: 'READ_ONLY' });
    expect(made.status, made.text).toBe(201);
    const reader = withKey(s, made.body.key);
    const { userId } = await join('gql-target@example.com', 'READ_ONLY');
    const invited = await gqlData(s.a, 'mutation { inviteMember(input: {email: "gql-open@example.com", role: READ_ONLY}) { invitation { invitationId } } }');

    const read = await gqlData(reader, '{ access { role userId keyId label } members(first: 100) { nodes { email } } }');
    expect(read.access).toEqual({ role: 'READ_ONLY', userId: null, keyId: made.body.id, label: expect.stringContaining('gql reader') });
    expect(read.members.nodes).toContainEqual({ email: 'gql-target@example.com' });

    const writes = [
      ['updateMemberRole', 'mutation($u: ID!) { updateMemberRole(userId: $u, role: READ_RUN) { member { id } } }', { u: userId }],
      ['removeMember', 'mutation($u: ID!) { removeMember(userId: $u) { removedUserId } }', { u: userId }],
      ['createMemberResetLink', 'mutation($u: ID!) { createMemberResetLink(userId: $u) { link } }', { u: userId }],
      ['inviteMember', 'mutation { inviteMember(input: {email: "gql-nope@example.com", role: READ_ONLY}) { link } }', {}],
      ['revokeInvitation', 'mutation($id: ID!) { revokeInvitation(id: $id) { revokedId } }', { id: invited.inviteMember.invitation.invitationId }],
    ] as const;
    for (const [name, query, variables] of writes) {
      const res = await gql(reader, query, variables);
      expect(refusal(res), name).toEqual([['FORBIDDEN', 'ROLE_FORBIDS']]);
      expect(res.data?.[name] ?? null, name).toBeNull();
    }
    const still = await gqlData(s.a, '{ members(first: 100) { nodes { email role } } }');
    expect(still.members.nodes).toContainEqual({ email: 'gql-target@example.com', role: 'READ_ONLY' });
    expect(still.members.nodes).toContainEqual({ email: 'gql-open@example.com', role: 'READ_ONLY' });
    expect(still.members.nodes).not.toContainEqual(expect.objectContaining({ email: 'gql-nope@example.com' }));
  });

  it("round-trips an API key's kind, role and expiry", async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const made = await gqlData(s.a, `mutation($i: ApiKeyInput!) { createApiKey(input: $i) { key apiKey { id kind role userId expiresAt } userErrors { field } } }`,
      { i: { name: 'gql runner', kind: 'SERVICE', role: 'READ_RUN', expiresAt } });
    const { key, apiKey, userErrors } = made.createApiKey;
    expect(userErrors).toEqual([]);
    expect(apiKey).toEqual({ id: expect.any(String), kind: 'SERVICE', role: 'READ_RUN', userId: null, expiresAt });
    const listed = await gqlData(s.a, '{ apiKeys { id kind role userId expiresAt } }');
    expect(listed.apiKeys).toContainEqual(apiKey);
    expect((await gqlData(withKey(s, key), '{ access { role keyId } }')).access).toEqual({ role: 'READ_RUN', keyId: apiKey.id });

    // A personal key acts as its person, with their role now.
    const { userId, accepted } = await join('gql-keys@example.com', 'READ_WRITE');
    const personal = await sessionClient(s, accepted).request('POST', '/v1/accounts/me/api-keys', { name: 'laptop', kind: 'personal' });
    expect(personal.status, personal.text).toBe(201);
    const person = withKey(s, personal.body.key);
    const own = await gqlData(person, 'mutation { createApiKey(input: {name: "second laptop", kind: PERSONAL}) { apiKey { kind role userId expiresAt } userErrors { field } } }');
    expect(own.createApiKey).toEqual({ apiKey: { kind: 'PERSONAL', role: 'READ_WRITE', userId, expiresAt: null }, userErrors: [] });
    expect((await gqlData(person, '{ access { role userId } }')).access).toEqual({ role: 'READ_WRITE', userId });
    const all = await gqlData(s.a, '{ apiKeys { name kind role userId } }');
    expect(all.apiKeys).toContainEqual({ name: 'laptop', kind: 'PERSONAL', role: 'READ_WRITE', userId });

    // Bad input is userErrors on its field; a role above the caller's is FORBIDDEN.
    const roleOnPersonal = await gqlData(person, 'mutation { createApiKey(input: {name: "x", kind: PERSONAL, role: READ_ONLY}) { apiKey { id } userErrors { field code } } }');
    expect(roleOnPersonal.createApiKey).toEqual({ apiKey: null, userErrors: [{ field: 'role', code: 'BAD_USER_INPUT' }] });
    const past = await gqlData(s.a, 'mutation { createApiKey(input: {name: "x", expiresAt: "2000-01-01T00:00:00Z"}) { apiKey { id } userErrors { field code } } }');
    expect(past.createApiKey).toEqual({ apiKey: null, userErrors: [{ field: 'expiresAt', code: 'BAD_USER_INPUT' }] });
    const above = await gql(withKey(s, key), 'mutation { createApiKey(input: {name: "x", role: OWNER}) { apiKey { id } } }');
    expect(refusal(above)).toEqual([['FORBIDDEN', 'ROLE_FORBIDS']]);
  });
});
