import { buildSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { createMeasureCache } from '../../src/graphql/cost-plugin.js';
import { measureReadsVariables } from '../../src/graphql/measure-reads-variables.js';

const schema = buildSchema(`
  directive @restCost(calls: Int! = 1, perParent: Boolean! = false) on FIELD_DEFINITION
  type Query {
    items(first: Int = 10, after: String): [Item!]! @restCost
    item(id: ID!): Item @restCost
  }
  type Item { id: ID! badge: String @restCost(perParent: true) }
`);

describe('whether an operation\'s measure depends on its variables', () => {
  it.each([
    ['a document without variables', '{ items(first: 3) { id } }', false],
    ['a variable only in an argument the measure never reads', 'query($id: ID!) { item(id: $id) { id badge } }', false],
    ['a variable in an after cursor', 'query($a: String) { items(after: $a) { id } }', false],
    ['a variable as a list\'s first', 'query($n: Int) { items(first: $n) { id } }', true],
    ['a variable in @skip', 'query($s: Boolean!) { items { id badge @skip(if: $s) } }', true],
    ['a variable in @include inside a fragment', 'query($s: Boolean!) { items { ...F } } fragment F on Item { badge @include(if: $s) }', true],
    ['a variable nested in a representations list', 'query($r: _Any!) { _entities(representations: [$r]) { id } }', true],
  ])('%s: %s', (_name, query, expected) => {
    expect(measureReadsVariables(parse(query, { noLocation: true }))).toBe(expected);
  });
});

describe('the cost plugin\'s measure cache', () => {
  it('measures a document whose measure cannot depend on variables once, whatever the variables', () => {
    const measure = createMeasureCache(schema, {});
    const document = parse('query($id: ID!) { item(id: $id) { id badge } }');
    const first = measure(document, undefined, { id: 'a' });
    expect(measure(document, undefined, { id: 'b' })).toBe(first);
    expect(first).toEqual({ depth: 2, aliases: 0, cost: 2 });
  });

  it('measures each operation of a document under its own name', () => {
    const measure = createMeasureCache(schema, {});
    const document = parse('query One { item(id: "x") { id } } query Two { items(first: 4) { badge } }');
    expect(measure(document, 'One', {}).cost).toBe(1);
    expect(measure(document, 'Two', {}).cost).toBe(5);
    expect(measure(document, 'One', {}).cost).toBe(1);
  });

  it('measures a document reading its variables again for every request', () => {
    const measure = createMeasureCache(schema, {});
    const document = parse('query($n: Int) { items(first: $n) { badge } }');
    expect(measure(document, undefined, { n: 2 }).cost).toBe(3);
    expect(measure(document, undefined, { n: 50 }).cost).toBe(51);
  });

  it('keeps documents apart even when their text is the same', () => {
    const measure = createMeasureCache(schema, {});
    expect(measure(parse('{ items(first: 2) { badge } }'), undefined, {}).cost).toBe(3);
    expect(measure(parse('{ items(first: 7) { badge } }'), undefined, {}).cost).toBe(8);
  });
});
