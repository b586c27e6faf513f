import { readFileSync } from 'node:fs';
import { buildSchema, findBreakingChanges, isInputObjectType, isObjectType, printSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import { buildExecutableSchema } from '../../src/graphql/build-executable-schema.js';
import { loadTypeDefs } from '../../src/graphql/load-type-defs.js';

/** The public schema as printed before issue 9 changed the SDL (printSchema of the executable schema). */
const before = buildSchema(readFileSync(new URL('../fixtures/schema-before-issue-9.graphql', import.meta.url), 'utf8'));
const after = buildSchema(printSchema(buildExecutableSchema(loadTypeDefs(), {})));

/**
 * Input positions that named a resource by its integer REST id before issue 9: each keeps its `Int`,
 * deprecated, next to an `ID` field that takes the resource's global id or its REST id.
 */
const DEPRECATED_INT_IDS: [string, string][] = [
  ...['Api', 'Url', 'Tcp', 'Dns', 'Icmp', 'Heartbeat', 'Browser', 'MultiStep', 'Playwright', 'Agentic'].map((t): [string, string] => [`${t}CheckInput.groupId`, 'group']),
  ['ApiCheckInput.setupSnippetId', 'setupSnippet'], ['ApiCheckInput.tearDownSnippetId', 'tearDownSnippet'],
  ['CheckGroupInput.setupSnippetId', 'setupSnippet'], ['CheckGroupInput.tearDownSnippetId', 'tearDownSnippet'],
  ['AlertChannelSubscriptionInput.alertChannelId', 'alertChannel'],
  ['CheckFilter.groupId', 'group'], ['CheckResultFilter.groupId', 'group'],
];

describe('the public schema after issue 9', () => {
  it('has no breaking change against the schema before it', () => {
    expect(findBreakingChanges(before, after).map((c) => `${c.type}: ${c.description}`)).toEqual([]);
  });

  it.each(DEPRECATED_INT_IDS)('keeps %s an Int, deprecated for the ID field %s', (field, sibling) => {
    const [type, name] = field.split('.') as [string, string];
    const was = before.getType(type);
    const is = after.getType(type);
    if (!isInputObjectType(was) || !isInputObjectType(is)) throw new Error(`${type} is not an input type`);
    const now = is.getFields()[name]!;
    // Only a nullable input field can be deprecated: `Int!` became `Int`, which accepts all it did.
    expect(String(now.type)).toBe(String(was.getFields()[name]!.type).replace(/!$/, ''));
    expect(now.deprecationReason).toContain(`\`${sibling}\``);
    expect(String(is.getFields()[sibling]?.type)).toBe('ID');
    expect(is.getFields()[sibling]?.description).toBeTruthy();
  });

  it('keeps every field of every object type, each concrete check and channel type included', () => {
    const missing: string[] = [];
    for (const type of Object.values(before.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      const now = after.getType(type.name);
      for (const name of Object.keys(type.getFields())) {
        if (!isObjectType(now) || !now.getFields()[name]) missing.push(`${type.name}.${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
