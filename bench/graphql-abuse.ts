/**
 * Event-loop hold time of abusive GraphQL documents (issue 25): `npx tsx bench/graphql-abuse.ts [--runs 5]`.
 *
 * Each document's synchronous work is what holds a server's event loop (nothing in it awaits), so it
 * is timed in this process, against the real schema, median of `--runs`:
 * - before: what the /graphql route did before issue 25, parsing without a token limit, then
 *   graphql-js validation (all specified rules); for variables, JSON.stringify of them (the size check);
 * - after: the route guard of issue 25 (createDocumentGuard: parsing with the token limit and the
 *   document limits; the variables' iterative depth walk), then validation only when the guard let
 *   the document through.
 * The last rows are the worst documents the limits still accept, validated: the bound on what any
 * document can hold the loop for.
 */
import { parseArgs } from 'node:util';
import { parse, validate } from 'graphql';
import { buildExecutableSchema } from '../src/graphql/build-executable-schema.js';
import { loadTypeDefs } from '../src/graphql/create-graphql.js';
import { createDocumentGuard } from '../src/graphql/create-document-guard.js';
import { DEFAULT_DOCUMENT_LIMITS, documentLimitError, documentLimitsOf } from '../src/graphql/document-limit-error.js';
import { jsonDepthExceeds } from '../src/graphql/json-depth-exceeds.js';

const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Number(args.runs);
const schema = buildExecutableSchema(loadTypeDefs(), {});
const limits = documentLimitsOf({});

const repeat = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join(' ');
const cycle = (n: number) => `{ ...F0 }\n${repeat(n, (i) => `fragment F${i} on Query { __typename ...F${(i + 1) % n} }`)}`;
const DOCUMENTS: Array<[string, string]> = [
  ['2,000 fields sharing one key, different arguments', `{ ${repeat(2000, (i) => `checks(first: ${i}) { totalCount }`)} }`],
  ['2,000 identical fields sharing one key', `{ ${'checks { totalCount } '.repeat(2000)}}`],
  ['a 1,000-long fragment cycle', cycle(1000)],
  ['a 100-long fragment cycle', cycle(100)],
  ['20,000 tokens', `{ ${'a '.repeat(20_000)}}`],
];
/** The heaviest documents the default limits accept (each near 5,000 repeated-field pairs). */
const ACCEPTED: Array<[string, string]> = [
  ['30 identical fields sharing one key, 9 subfields each', `{ ${repeat(30, () => 'checks { nodes { id name checkType activated muted frequency tags locations createdAt } }')} }`],
  ['70 fields sharing one key, different arguments', `{ ${repeat(70, (i) => `checks(first: ${i}) { totalCount }`)} }`],
  ['70 fragments spread together, one key', `{ ${repeat(70, (i) => `...F${i}`)} }\n${repeat(70, (i) => `fragment F${i} on Query { checks(first: ${i}) { totalCount } }`)}`],
  ['~14,000 tokens of 7,000 unknown fields', `{ ${repeat(7000, (i) => `k${i}`)} }`],
];

/** Repeated-field pairs of a document, as the guard counts them. */
function pairsOf(query: string): number {
  return Number(documentLimitError(parse(query), { ...DEFAULT_DOCUMENT_LIMITS, maxRepeatedFieldPairs: 1 })?.extensions.value ?? 0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Median milliseconds `work` holds the thread; errors count as the end of the work. */
function hold(work: () => unknown): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    try {
      work();
    } catch {
      // A refusal (or the old path's crash) ends the work.
    }
    times.push(performance.now() - start);
  }
  return median(times);
}

function before(query: string): void {
  validate(schema, parse(query));
}

function after(query: string): void {
  // A fresh guard per run: its memory of accepted texts would make repeats free.
  if (createDocumentGuard(limits)(query)) return;
  validate(schema, parse(query));
}

const nested = JSON.parse(`{"input":{"name":"x"},"unused":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
const rows: Array<[string, number, number | null]> = [
  ...DOCUMENTS.map(([name, query]): [string, number, number] => [name, hold(() => before(query)), hold(() => after(query))]),
  ['variables with an unused value 10,000 deep', hold(() => JSON.stringify(nested)), hold(() => jsonDepthExceeds(nested, 33))],
  ...ACCEPTED.map(([name, query]): [string, number, null] => {
    if (createDocumentGuard(limits)(query)) throw new Error(`the limits refuse "${name}"`);
    return [`accepted: ${name} (${pairsOf(query)} pairs)`, hold(() => after(query)), null];
  }),
];
console.log(`runs ${runs}, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log('| document | before (ms) | after (ms) |');
console.log('|---|---:|---:|');
for (const [name, b, a] of rows) console.log(`| ${name} | ${b.toFixed(1)} | ${a === null ? 'same (accepted)' : a.toFixed(1)} |`);
