import { Kind, parse, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { restResultFields } from '../../src/graphql/rest-result-fields.js';

/** The resolve info of the first field of the operation's first field (`check { <field> }`), as far as restResultFields reads it. */
function infoOf(query: string): GraphQLResolveInfo {
  const doc = parse(query);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const check = op.selectionSet.selections[0] as FieldNode;
  const field = check.selectionSet!.selections[0] as FieldNode;
  const fragments = Object.fromEntries(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((f) => [f.name.value, f]));
  return { fieldNodes: [field], fragments } as unknown as GraphQLResolveInfo;
}

describe('restResultFields', () => {
  it.each([
    ['a list asking summary fields', '{ check { latestResults { resultId hasFailures startedAt } } }', false, 'checkId,hasFailures,id,startedAt'],
    ['renamed fields', '{ check { latestResults { createdAt errorGroups { id } check { name } } } }', false, 'checkId,created_at,errorGroupIds,id'],
    ['fields in fragments and inline fragments', '{ check { latestResults { ...R ... on CheckResult { runLocation } } } } fragment R on CheckResult { responseTime __typename }', false, 'checkId,id,responseTime,runLocation'],
    ['a connection read through nodes and edges', '{ check { results { totalCount pageInfo { hasNextPage } nodes { isDegraded } edges { cursor node { attempts } } } } }', true, 'attempts,checkId,id,isDegraded'],
    ['only the global id', '{ check { latestResults { id } } }', false, 'checkId,id'],
  ])('asks REST only for the columns of %s', (_label, query, connection, expected) => {
    expect(restResultFields(infoOf(query), connection)).toBe(expected);
  });

  it.each([
    ['the API part', '{ check { latestResults { resultId apiCheckResult { requestError } } } }', false],
    ['errors', '{ check { latestResults { errors { code } } } }', false],
    ['assertions in a fragment', '{ check { results { nodes { ...A } } } } fragment A on CheckResult { assertions { source } }', true],
  ])('asks REST for whole results when the selection reads %s', (_label, query, connection) => {
    expect(restResultFields(infoOf(query), connection)).toBeUndefined();
  });
});
