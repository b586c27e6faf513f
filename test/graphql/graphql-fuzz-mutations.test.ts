import fc from 'fast-check';
import {
  getNullableType, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType,
  type GraphQLInputType, type GraphQLSchema,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildExecutableSchema } from '../../src/graphql/build-executable-schema.js';
import { loadTypeDefs } from '../../src/graphql/create-graphql.js';
import { gql, type GraphqlResult } from '../support/graphql.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { fuzzParameters } from '../support/fuzz-parameters.js';

const params = (numRuns: number) => fuzzParameters(numRuns, 20261122);

/** Any UTF-16 code unit, lone surrogates and NUL included: what JSON can carry, not only what text should hold. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c));

/** Strings clients could send: ordinary text, raw code units, the troublemakers on their own, and long ones. */
const text = (long: boolean) => fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 3, arbitrary: fc.string({ unit: codeUnit, maxLength: 30 }) },
  { weight: 2, arbitrary: fc.constantFrom('', ' ', '\u0000', 'a\u0000b', '\ud800', '\udfff', 'x\ud800y', '\ud83d\ude00', 'https://example.test/', 'eu-west-1', '{{VAR}}') },
  ...(long ? [{ weight: 1, arbitrary: fc.string({ unit: codeUnit, minLength: 5000, maxLength: 20_000 }) }] : []),
);

/** A value of no particular type, for lists whose items should have been of another one. */
const noise = fc.oneof(text(false), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean());

/**
 * Values of a GraphQL input type, derived from the schema: mostly of the right type (so they reach
 * the REST API) with arbitrary content, sometimes a list of the wrong item type or a long list.
 */
function valueOf(type: GraphQLInputType, depth = 0): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return valueOf(type.ofType, depth);
  if (isListType(type)) {
    const item = valueOf(type.ofType, depth + 1);
    const scalarItems = isScalarType(getNullableType(type.ofType));
    return fc.oneof(
      { weight: 8, arbitrary: fc.array(item, { maxLength: 6 }) },
      { weight: 1, arbitrary: fc.array(noise, { minLength: 1, maxLength: 20 }) },
      ...(scalarItems ? [{ weight: 1, arbitrary: fc.array(item, { minLength: 100, maxLength: 1500 }) }] : []),
    );
  }
  if (isEnumType(type)) return fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...type.getValues().map((v) => v.name)) }, { weight: 1, arbitrary: text(false) });
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    const record = Object.fromEntries(fields.map((f) => [f.name, isNonNullType(f.type) ? valueOf(f.type, depth + 1) : fc.option(valueOf(f.type, depth + 1), { nil: null, freq: 8 })]));
    return fc.record(record, { requiredKeys: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name) });
  }
  switch (type.name) {
    case 'Int': return fc.oneof(fc.integer({ min: -5, max: 100 }), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }));
    case 'Float': return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'Boolean': return fc.boolean();
    case 'JSON': return fc.jsonValue({ maxDepth: 3 });
    default: return text(depth <= 1);
  }
}

/** A kind of resource the fuzzed mutations write: how to count them and to read one back. */
interface Family {
  name: string;
  /** Root field of `{ ... }` whose totalCount counts them. */
  connection: string;
  /** REST path of one resource, for comparing it before and after an update. */
  restPath: (id: string) => string;
  /** Mutations that create one (input only). */
  creates: string[];
  /** Mutations that update one (`id` or `key` and input). */
  updates: string[];
}

const CHECK_TYPES = ['Api', 'Url', 'Tcp', 'Dns', 'Icmp', 'Heartbeat', 'Browser', 'MultiStep'];
const CHANNEL_TYPES = ['Email', 'Slack', 'Webhook', 'Sms', 'Pagerduty', 'Opsgenie'];

const FAMILIES: Family[] = [
  { name: 'checks', connection: 'checks', restPath: (id) => `/v1/checks/${id}`, creates: CHECK_TYPES.map((t) => `create${t}Check`), updates: ['updateApiCheck'] },
  { name: 'check groups', connection: 'checkGroups', restPath: (id) => `/v1/check-groups/${id}`, creates: ['createCheckGroup'], updates: ['updateCheckGroup'] },
  { name: 'alert channels', connection: 'alertChannels', restPath: (id) => `/v1/alert-channels/${id}`, creates: CHANNEL_TYPES.map((t) => `create${t}AlertChannel`), updates: ['updateEmailAlertChannel'] },
  { name: 'environment variables', connection: 'environmentVariables', restPath: (key) => `/v1/variables/${encodeURIComponent(key)}`, creates: ['createEnvironmentVariable'], updates: ['updateEnvironmentVariable'] },
  { name: 'snippets', connection: 'snippets', restPath: (id) => `/v1/snippets/${id}`, creates: ['createSnippet'], updates: ['updateSnippet'] },
];

/** The mutation document for `field`, its input variable typed as the schema says. */
function mutationOf(schema: GraphQLSchema, field: string): { document: string; input: fc.Arbitrary<unknown>; target: 'id' | 'key' | null } {
  const def = schema.getMutationType()!.getFields()[field]!;
  const inputArg = def.args.find((a) => a.name === 'input')!;
  const target = def.args.some((a) => a.name === 'id') ? 'id' : def.args.some((a) => a.name === 'key') ? 'key' : null;
  const targetVar = target ? `, $${target}: ${target === 'id' ? 'ID' : 'String'}!` : '';
  const targetArg = target ? `${target}: $${target}, ` : '';
  return {
    document: `mutation($input: ${String(inputArg.type)}${targetVar}) { r: ${field}(${targetArg}input: $input) { userErrors { field code message } } }`,
    input: valueOf(inputArg.type),
    target,
  };
}

describe('GraphQL create and update mutations under random input', () => {
  const schema = buildExecutableSchema(loadTypeDefs(), {});
  let s: TestServer;
  const targets: Record<string, string> = {};

  beforeAll(async () => {
    s = await startTestServer({ config: { rateLimitMax: 0 } });
    const made = await Promise.all([
      s.a.request('POST', '/v1/checks/api', { name: 'target', request: { url: 'https://example.test/' } }),
      s.a.request('POST', '/v1/check-groups', { name: 'target' }),
      s.a.request('POST', '/v1/alert-channels', { type: 'EMAIL', config: { address: 'target@example.test' } }),
      s.a.request('POST', '/v1/variables', { key: 'TARGET', value: 'target' }),
      s.a.request('POST', '/v1/snippets', { name: 'target', script: '// target' }),
    ]);
    for (const res of made) expect(res.status).toBeLessThan(300);
    const [check, group, channel, , snippet] = made.map((r) => r.body);
    Object.assign(targets, { checks: check.id, 'check groups': String(group.id), 'alert channels': String(channel.id), 'environment variables': 'TARGET', snippets: String(snippet.id) });
  });
  afterAll(async () => s?.close());

  const count = async (family: Family) => {
    const res = await gql(s.a, `{ c: ${family.connection}(first: 1) { totalCount } }`);
    expect(res.data.c.totalCount).toBeTypeOf('number');
    return res.data.c.totalCount as number;
  };

  /** What every answer must be, whatever the input: no 5xx, nothing internal, no REST failure, and small. */
  const expectSound = (res: GraphqlResult, input: unknown) => {
    const shown = JSON.stringify(input).slice(0, 2000);
    expect(res.status, shown).toBeLessThan(500);
    const codes = (res.errors ?? []).map((e) => e.extensions?.code);
    expect(codes, shown).not.toContain('INTERNAL_SERVER_ERROR');
    // A REST 5xx reaches GraphQL as BACKEND_UNAVAILABLE: a REST bug for input GraphQL passed on.
    expect(codes, shown).not.toContain('BACKEND_UNAVAILABLE');
    expect(Buffer.byteLength(JSON.stringify(res)), shown).toBeLessThan(64 * 1024);
    const userErrors = (res.data?.r?.userErrors ?? []) as unknown[];
    expect(userErrors.length, shown).toBeLessThanOrEqual(s.lookout.config.maxErrorIssues + 1);
  };

  it.each(FAMILIES.map((f) => [f.name, f] as const))('creating %s answers soundly, and writes nothing when it answers userErrors', async (_name, family) => {
    const mutations = family.creates.map((field) => ({ field, ...mutationOf(schema, field) }));
    await fc.assert(fc.asyncProperty(fc.constantFrom(...mutations).chain((m) => m.input.map((input) => ({ m, input }))), async ({ m, input }) => {
      const before = await count(family);
      const res = await gql(s.a, m.document, { input });
      expectSound(res, input);
      const userErrors = res.data?.r?.userErrors as unknown[] | undefined;
      if (!res.data?.r || userErrors?.length) expect(await count(family), JSON.stringify(input).slice(0, 2000)).toBe(before);
    }), params(40));
  });

  it.each(FAMILIES.map((f) => [f.name, f] as const))('updating %s answers soundly, and changes nothing when it answers userErrors', async (_name, family) => {
    const mutations = family.updates.map((field) => ({ field, ...mutationOf(schema, field) }));
    await fc.assert(fc.asyncProperty(fc.constantFrom(...mutations).chain((m) => m.input.map((input) => ({ m, input }))), async ({ m, input }) => {
      const target = targets[family.name]!;
      const before = await s.a.request('GET', family.restPath(target));
      const res = await gql(s.a, m.document, { input, [m.target!]: target });
      expectSound(res, input);
      const userErrors = res.data?.r?.userErrors as unknown[] | undefined;
      if (!res.data?.r || userErrors?.length) {
        expect((await s.a.request('GET', family.restPath(target))).body, JSON.stringify(input).slice(0, 2000)).toEqual(before.body);
      }
    }), params(30));
  });
});
