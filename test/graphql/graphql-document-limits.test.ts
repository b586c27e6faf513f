import { getIntrospectionQuery, getNamedType, isLeafType, isNonNullType, parse, print, type GraphQLField } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as consoleDocuments from '../../web/src/__generated__/graphql.js';
import { buildExecutableSchema } from '../../src/graphql/build-executable-schema.js';
import { loadTypeDefs } from '../../src/graphql/create-graphql.js';
import { DEFAULT_DOCUMENT_LIMITS, documentLimitError, fragmentInCycle } from '../../src/graphql/document-limit-error.js';
import { jsonDepthExceeds, jsonTextDepthExceeds } from '../../src/graphql/json-depth-exceeds.js';
import { connectGraphqlWs, refusedThenServed } from '../support/graphql-ws-client.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const schema = buildExecutableSchema(loadTypeDefs(), {});

/** JSON text of arrays nested `depth` deep: built as text, since JSON.stringify of it overflows the stack. */
const nestedJson = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

/** Every create and update mutation of the schema, as an operation passing each argument as a variable. */
const writeMutations = Object.values(schema.getMutationType()!.getFields())
  .filter((field) => /^(create|update)[A-Z]/.test(field.name))
  .map((field: GraphQLField<unknown, unknown>) => {
    const declared = field.args.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(', ');
    const passed = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
    const selection = isLeafType(getNamedType(field.type)) ? '' : ' { __typename }';
    const query = `mutation${declared ? `(${declared})` : ''} { ${field.name}${passed ? `(${passed})` : ''}${selection} }`;
    const required = field.args.filter((arg) => isNonNullType(arg.type)).map((arg) => arg.name);
    return [field.name, query, required] as const;
  });

/** The abusive documents of issue 25, each with the code refusing it before validation. */
const ABUSIVE_DOCUMENTS = [
  ['2,000 fields sharing one response key', `{ ${'checks { totalCount } '.repeat(2000)}}`, 'TOO_MANY_REPEATED_FIELDS'],
  ['a 1,000-long fragment cycle', `{ ...F0 }\n${Array.from({ length: 1000 }, (_, i) => `fragment F${i} on Query { ...F${(i + 1) % 1000} }`).join('\n')}`, 'TOO_MANY_FRAGMENTS'],
  ['a 100-long fragment cycle', `{ ...F0 }\n${Array.from({ length: 100 }, (_, i) => `fragment F${i} on Query { __typename ...F${(i + 1) % 100} }`).join('\n')}`, 'FRAGMENT_CYCLE'],
  ['20,000 tokens', `{ ${'a '.repeat(20_000)}}`, 'TOO_MANY_TOKENS'],
] as const;

describe('GraphQL work bounded before validation', () => {
  let s: TestServer;
  const post = (body: string) => s.raw('POST', '/graphql', { body, headers: { 'content-type': 'application/json', authorization: `Bearer ${s.a.apiKey}` } });

  beforeAll(async () => {
    s = await startTestServer({ config: { rateLimitMax: 0 } });
  });
  afterAll(async () => s?.close());

  it('finds the create and update mutations in the schema', () => {
    expect(writeMutations.length).toBeGreaterThan(50);
  });

  it.each(writeMutations)('refuses %s whose variables hold an unused value nested 10,000 deep with VARIABLES_TOO_DEEP (400), not a 500', async (_name, query, required) => {
    // Required arguments are sent as well (any value: nothing is coerced), with the unused value beside them.
    const variables = [...required.map((name) => `${JSON.stringify(name)}:{}`), `"unused":${nestedJson(10_000)}`].join(',');
    const res = await post(`{"query":${JSON.stringify(query)},"variables":{${variables}}}`);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'VARIABLES_TOO_DEEP', limit: 33 }) })]);
  });

  it('refuses variables nested too deep sent with GET, from their text', async () => {
    const query = encodeURIComponent('{ __typename }');
    const res = await s.raw('GET', `/graphql?query=${query}&variables=${encodeURIComponent(`{"v":${nestedJson(1000)}}`)}`, { headers: { authorization: `Bearer ${s.a.apiKey}` } });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('VARIABLES_TOO_DEEP');
  });

  it('answers variables as deep as a REST body may be', async () => {
    let value = '{}';
    for (let depth = 2; depth < 33; depth++) value = `[${value}]`;
    // Variables the operation does not declare are ignored, as graphql-js does.
    const res = await post(`{"query":"{ __typename }","variables":{"v":${value}}}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ __typename: 'Query' });
  });

  it.each(ABUSIVE_DOCUMENTS)('refuses %s with its own code (400) before validation', async (_name, query, code) => {
    const res = await post(JSON.stringify({ query }));
    expect(res.status).toBe(400);
    // A validation refusal would be GRAPHQL_VALIDATION_FAILED, after the work this bounds.
    expect(res.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code }) })]);
  });

  it.each(ABUSIVE_DOCUMENTS)('answers a subscribe over graphql-ws with %s with an error of the same code, and keeps the socket', async (_name, query, code) => {
    const client = await connectGraphqlWs(s.url, { authorization: `Bearer ${s.a.apiKey}` });
    try {
      const { refused, after } = await refusedThenServed(client, { query });
      expect(refused).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code }) })]);
      expect(after).toEqual({ data: { __typename: 'Query' } });
    } finally {
      await client.dispose();
    }
  });

  it('answers a subscribe over graphql-ws whose variables nest 1,000 deep with VARIABLES_TOO_DEEP', async () => {
    const client = await connectGraphqlWs(s.url, { authorization: `Bearer ${s.a.apiKey}` });
    try {
      const refused = await new Promise<unknown>((resolve) => {
        // 1,000 deep: the client serializes the message with JSON.stringify, which 10,000 would overflow.
        client.subscribe({ query: '{ __typename }', variables: { v: JSON.parse(nestedJson(1000)) } },
          { next: () => resolve('next'), error: resolve, complete: () => resolve('complete') });
      });
      expect(refused).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'VARIABLES_TOO_DEEP' }) })]);
    } finally {
      await client.dispose();
    }
  });
});

describe('the document limits leave every legitimate operation alone', () => {
  const documents = Object.entries(consoleDocuments)
    .filter(([, value]) => (value as { kind?: string })?.kind === 'Document')
    .map(([name, document]) => [name, print(document as never)] as const);

  it.each<readonly [string, string]>([
    ...documents,
    ['the full introspection query', getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true })],
    ['federation', '{ _service { sdl } _entities(representations: []) { __typename } }'],
  ])('passes %s', (_name, query) => {
    const document = parse(query, { maxTokens: DEFAULT_DOCUMENT_LIMITS.maxTokens });
    expect(documentLimitError(document, { ...DEFAULT_DOCUMENT_LIMITS, maxAliases: 30 })).toBeNull();
  });

  it('finds the console\'s documents', () => {
    expect(documents.length).toBeGreaterThan(20);
  });
});

describe('the walks over attacker-sized input', () => {
  it('find a cycle in a spread graph without recursion, and none in a diamond', () => {
    const chain = new Map(Array.from({ length: 100_000 }, (_, i) => [`F${i}`, [`F${i + 1}`]]));
    expect(fragmentInCycle(chain)).toBeNull();
    chain.set('F100000', ['F0']);
    expect(fragmentInCycle(chain)).toBe('F0');
    expect(fragmentInCycle(new Map([['A', ['B', 'C']], ['B', ['D']], ['C', ['D']], ['D', ['Missing']]]))).toBeNull();
  });

  it('measure JSON depth of values and of text alike, strings not counted', () => {
    const deep = JSON.parse(nestedJson(100_000));
    expect(jsonDepthExceeds(deep, 32)).toBe(true);
    expect(jsonTextDepthExceeds(nestedJson(100_000), 32)).toBe(true);
    const text = JSON.stringify({ a: [{ b: '[[[[{{{{"\\' }] });
    expect(jsonDepthExceeds(JSON.parse(text), 3)).toBe(false);
    expect(jsonTextDepthExceeds(text, 3)).toBe(false);
    expect(jsonTextDepthExceeds(text, 2)).toBe(true);
  });
});
