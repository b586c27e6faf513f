import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maintenanceGlobalId, maintenanceUpdateGlobalId } from '../../../src/graphql/maintenance-ids.js';
import { statusPageSubscriberGlobalId } from '../../../src/graphql/status-page-ids.js';
import { incidentUpdateGlobalId } from '../../../src/graphql/status-page-incident-ids.js';
import { startTestServer, type TestClient, type TestServer } from '../../support/test-server.js';

/**
 * The role table, walked: every REST operation the OpenAPI document lists and every GraphQL
 * mutation, called with a service key of each role. A role below what the operation needs is
 * refused with a coded 403 (`ROLE_FORBIDS`; GraphQL `FORBIDDEN`); a role that may is never refused
 * for its role (it may still meet 400 or 404: the ids and bodies here name nothing).
 *
 * What each operation needs is written out here, independently of the server's declarations:
 * reads need Read Only, writes Read & Write, unless listed below.
 */
const ROLES = ['OWNER', 'ADMIN', 'READ_WRITE', 'READ_RUN', 'READ_ONLY'] as const;
type Role = (typeof ROLES)[number];
type Need = 'read' | 'run' | 'write' | 'manage' | 'self';
const LEAST: Record<Exclude<Need, 'self'>, Role> = { read: 'READ_ONLY', run: 'READ_RUN', write: 'READ_WRITE', manage: 'ADMIN' };
const allows = (role: Role, need: Need) => need === 'self' || ROLES.indexOf(role) <= ROLES.indexOf(LEAST[need]);

const REST_NEEDS: Record<string, Need> = {
  // Running checks: Read & Run.
  runCheck: 'run', runCheckGroup: 'run', triggerTestSession: 'run', cancelTestSession: 'run', triggerTestSessionForCli: 'run',
  runSubmittedChecks: 'run', triggerCheckSessions: 'run', uploadCodeBundle: 'run', uploadStoredFile: 'run',
  // Trigger tokens run checks without a key: seeing one needs Read & Run.
  getCheckTrigger: 'run', getCheckGroupTrigger: 'run',
  // Reads sent as POST.
  getChecksAnalyticsSummary: 'read', downloadStoredFile: 'read',
  // The account and its people: Admin.
  updateCurrentAccount: 'manage', updateMember: 'manage', removeMember: 'manage', createMemberResetLink: 'manage',
  listInvitations: 'manage', createInvitation: 'manage', revokeInvitation: 'manage', listAuditLog: 'manage',
  // What anyone does for themselves (service keys are answered that they act for no person).
  getSession: 'self', switchAccount: 'self', signOut: 'self', signOutEverywhere: 'self', changePassword: 'self',
  startTotp: 'self', confirmTotp: 'self', disableTotp: 'self', createApiKey: 'self', revokeApiKey: 'self',
};

const GRAPHQL_NEEDS: Record<string, Need> = {
  runCheck: 'run', runGroup: 'run', triggerTestSession: 'run', cancelTestSession: 'run',
  // A service key acts for no person, so the key it makes is a service key too: managers only.
  updateAccountSettings: 'manage', createApiKey: 'manage', revokeApiKey: 'self',
  // The account's people: Admin, like their REST routes.
  updateMemberRole: 'manage', removeMember: 'manage', createMemberResetLink: 'manage', inviteMember: 'manage', revokeInvitation: 'manage',
};

/**
 * Ids of mutations whose ids carry their parents' (maintenances, updates, subscribers): made of
 * parts that name nothing, so the write reaches REST, which decides the role before looking.
 */
const COMPOSITE_IDS: Record<string, () => string> = {
  updateMaintenance: () => maintenanceGlobalId(999999, randomUUID()),
  deleteMaintenance: () => maintenanceGlobalId(999999, randomUUID()),
  createMaintenanceUpdate: () => maintenanceGlobalId(999999, randomUUID()),
  updateMaintenanceUpdate: () => maintenanceUpdateGlobalId(999999, randomUUID(), randomUUID()),
  updateIncidentUpdate: () => incidentUpdateGlobalId(randomUUID(), randomUUID()),
  deleteIncidentUpdate: () => incidentUpdateGlobalId(randomUUID(), randomUUID()),
  deleteStatusPageSubscriber: () => statusPageSubscriberGlobalId(randomUUID(), randomUUID()),
};

interface Operation {
  method: string;
  path: string;
  operationId: string;
  parameters?: Array<{ in: string; name: string; required?: boolean; schema?: { type?: string | string[]; format?: string; enum?: unknown[] } }>;
}

/** A value of a parameter's schema that names nothing the account has. */
function sample(schema: { type?: string | string[]; format?: string; enum?: unknown[] } = {}): string {
  if (schema.enum?.length) return String(schema.enum[0]);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (schema.format === 'uuid') return randomUUID();
  if (type === 'integer' || type === 'number') return '999999';
  if (schema.format === 'date-time') return '2030-01-01T00:00:00Z';
  return 'nothing-here-0123456789';
}

function requestOf(op: Operation): { path: string; body?: unknown } {
  let path = op.path;
  const query = new URLSearchParams();
  for (const p of op.parameters ?? []) {
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(sample(p.schema)));
    else if (p.in === 'query' && p.required) query.set(p.name, sample(p.schema));
  }
  const q = query.toString();
  return { path: q ? `${path}?${q}` : path, body: ['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method) ? {} : undefined };
}

describe('roles, walked over every REST operation and GraphQL mutation', () => {
  let s: TestServer;
  const keys = new Map<Role, TestClient>();

  beforeAll(async () => {
    s = await startTestServer({ contract: false, config: { rateLimitMax: 0 } });
    for (const role of ROLES) {
      const made = await s.a.request('POST', '/v1/accounts/me/api-keys', { name: `role ${role}`, role });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const key = made.body.key as string;
      keys.set(role, { ...s.a, apiKey: key, request: (method, path, body, headers = {}) => s.a.request(method, path, body, { authorization: `Bearer ${key}`, ...headers }) });
    }
  });
  afterAll(async () => s?.close());

  it('refuses each REST operation to the roles below what it needs, and to no other', { timeout: 600_000 }, async () => {
    const doc = (await s.a.request('GET', '/openapi.json')).body as { paths: Record<string, Record<string, Omit<Operation, 'method' | 'path'> & { security?: unknown[] }>> };
    const operations: Operation[] = [];
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        if (!op.operationId || (Array.isArray(op.security) && op.security.length === 0)) continue; // public: no key, no role
        if (path === '/graphql') continue; // walked below, mutation by mutation
        if (op.operationId === 'streamEvents') continue; // never ends: its refusal is tested in the events suite
        if (path.startsWith('/v1/agent/')) continue; // agents authenticate with agent keys, which carry no role
        operations.push({ ...op, method: method.toUpperCase(), path });
      }
    }
    expect(operations.length).toBeGreaterThan(150);
    const wrong: string[] = [];
    for (const op of operations) {
      const need = REST_NEEDS[op.operationId] ?? (op.method === 'GET' || op.method === 'HEAD' ? 'read' : 'write');
      for (const role of ROLES) {
        const { path, body } = requestOf(op);
        const res = await keys.get(role)!.request(op.method, path, body);
        const refused = res.status === 403 && res.body?.attributes?.code === 'ROLE_FORBIDS';
        if (refused !== !allows(role, need)) wrong.push(`${op.operationId} (${op.method} ${op.path}) as ${role}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('refuses each GraphQL mutation with a FORBIDDEN error to the roles below what it needs, and to no other', async () => {
    // updateStatusPage reads the page before it writes (REST takes the whole page): a real one.
    const page = await s.a.request('POST', '/v1/status-pages', { name: 'Roles', url: `roles-${Date.now()}`, cards: [] });
    expect(page.status, JSON.stringify(page.body)).toBe(201);
    ids.updateStatusPage = () => page.body.id;
    const mutations = await mutationsOf(keys.get('OWNER')!);
    expect(mutations.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    for (const m of mutations) {
      const need = GRAPHQL_NEEDS[m.name] ?? 'write';
      for (const role of ROLES) {
        const codes = await codesOf(keys.get(role)!, m);
        const refused = codes.includes('FORBIDDEN');
        if (refused !== !allows(role, need)) wrong.push(`${m.name} as ${role}: ${codes.join(', ') || 'no error'}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

interface TypeRef { kind: string; name: string | null; ofType: TypeRef | null }
interface Mutation { name: string; document: (id: string) => string }

const TYPE_REF = 'kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } }';

/** Every mutation with a document giving each required argument a value that names nothing. */
async function mutationsOf(client: TestClient): Promise<Mutation[]> {
  const res = await client.request('POST', '/graphql', {
    query: `{ __schema { mutationType { fields { name args { name type { ${TYPE_REF} } } type { ${TYPE_REF} } } }
      types { name kind inputFields { name type { ${TYPE_REF} } } enumValues { name } } } }`,
  });
  const schema = res.body.data.__schema;
  const types = new Map<string, { kind: string; inputFields: Array<{ name: string; type: TypeRef }> | null; enumValues: Array<{ name: string }> | null }>(
    schema.types.map((t: { name: string }) => [t.name, t]),
  );
  const value = (ref: TypeRef, id: string, depth = 0): string | undefined => {
    if (ref.kind === 'NON_NULL') return value(ref.ofType!, id, depth);
    if (ref.kind === 'LIST') return '[]';
    const named = types.get(ref.name!)!;
    if (named.kind === 'ENUM') return named.enumValues![0]!.name;
    if (named.kind === 'INPUT_OBJECT') {
      if (depth > 4) return '{}';
      const fields = named.inputFields!.filter((f) => f.type.kind === 'NON_NULL').map((f) => `${f.name}: ${value(f.type, id, depth + 1)}`);
      return `{ ${fields.join(', ')} }`;
    }
    switch (ref.name) {
      case 'ID': return JSON.stringify(id);
      case 'Int': return '999999';
      case 'Float': return '1.5';
      case 'Boolean': return 'false';
      case 'DateTime': return '"2030-01-01T00:00:00Z"';
      default: return JSON.stringify('nothing-here');
    }
  };
  const unwrap = (ref: TypeRef): TypeRef => (ref.ofType ? unwrap(ref.ofType) : ref);
  return schema.mutationType.fields.map((field: { name: string; args: Array<{ name: string; type: TypeRef }>; type: TypeRef }) => ({
    name: field.name,
    document: (id: string) => {
      const args = field.args.filter((a) => a.type.kind === 'NON_NULL').map((a) => `${a.name}: ${value(a.type, id)}`);
      const selection = types.get(unwrap(field.type).name!)?.kind === 'OBJECT' ? '{ __typename }' : '';
      return `mutation { ${field.name}${args.length ? `(${args.join(', ')})` : ''} ${selection} }`;
    },
  }));
}

/**
 * The error codes one mutation answers, with ids that are REST UUIDs and then REST integers: a
 * mutation of integer ids refuses a UUID before it asks REST anything (NOT_FOUND), so the role is
 * only decided with the second.
 */
const ids: Record<string, () => string> = { ...COMPOSITE_IDS };

async function codesOf(client: TestClient, m: Mutation): Promise<string[]> {
  let codes: string[] = [];
  for (const id of ids[m.name] ? [ids[m.name]!()] : [randomUUID(), '999999']) {
    const res = await client.request('POST', '/graphql', { query: m.document(id) });
    const data = res.body?.data?.[m.name];
    codes = [
      ...(res.body?.errors ?? []).map((e: { extensions?: { code?: string } }) => e.extensions?.code ?? 'UNCODED'),
      ...(data?.userErrors ?? []).map((e: { code?: string }) => `userError:${e.code}`),
    ];
    if (codes.includes('FORBIDDEN')) return codes;
    if (!codes.includes('NOT_FOUND')) return codes;
  }
  return codes;
}
