import { GraphQLError, Kind, type DocumentNode, type SelectionSetNode } from 'graphql';

/** Limits on a parsed document, checked before validation; 0 turns a limit off. */
export interface DocumentLimits {
  /** Tokens the parser reads before it gives up (graphql-js `maxTokens`). */
  maxTokens: number;
  /** Fragment definitions in one document. */
  maxFragments: number;
  /**
   * Pairs of fields sharing a response key (name or alias), over the whole document: n fields of
   * one key make n(n-1)/2 pairs, the comparisons OverlappingFieldsCanBeMerged may make of them.
   */
  maxRepeatedFieldPairs: number;
  /** Aliased fields written in the document (the cost limit's `GRAPHQL_MAX_ALIASES`, which counts them per spread). */
  maxAliases: number;
}

/**
 * Many times the largest operation of the console, codegen, GraphiQL and the tests (253 tokens, 3
 * fragments, 303 repeated-field pairs in the full introspection query): within them, graphql-js
 * validation of any document takes tens of milliseconds at most (bench/graphql-abuse.ts). The
 * costly rule, OverlappingFieldsCanBeMerged, compares fields sharing a response key pairwise and
 * recurses into their selections, so its work is bounded by the pairs of the whole document.
 */
export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = { maxTokens: 15_000, maxFragments: 100, maxRepeatedFieldPairs: 5_000, maxAliases: 0 };

/** The document limits of the HTTP endpoint and the sockets alike: the alias limit is the cost limit's (`GRAPHQL_MAX_ALIASES`). */
export function documentLimitsOf(config: { graphqlMaxAliases?: number }): DocumentLimits {
  return { ...DEFAULT_DOCUMENT_LIMITS, maxAliases: config.graphqlMaxAliases ?? 30 };
}

/** graphql-js's message when `maxTokens` stops the parser (graphql 16 writes "more that"). */
const TOO_MANY_TOKENS = /^Syntax Error: Document contains more tha[nt] \d+ tokens/;

/** The coded TOO_MANY_TOKENS error (HTTP 400) of a parse error `maxTokens` caused; null for any other. */
export function tooManyTokensError(error: unknown, limits: Pick<DocumentLimits, 'maxTokens'>): GraphQLError | null {
  const message = error instanceof Error ? error.message : '';
  if (!TOO_MANY_TOKENS.test(message)) return null;
  return refusal('TOO_MANY_TOKENS', `The document has more than ${limits.maxTokens} tokens`, limits.maxTokens);
}

function refusal(code: string, message: string, limit: number, value?: number): GraphQLError {
  return new GraphQLError(`${message}; at most ${limit} are allowed`, {
    extensions: { code, limit, ...(value === undefined ? {} : { value }), http: { status: 400 } },
  });
}

/** What one pass over the document counts. */
interface DocumentCounts {
  fragments: number;
  aliases: number;
  /** Pairs of fields sharing a response key, and the key used most. */
  repeatedPairs: number;
  mostUsedKey: string;
  mostUsed: number;
  /** Fragment names each fragment spreads, in the fragment itself and its inline fragments. */
  spreads: Map<string, string[]>;
}

/** One pass over every selection of the document, with an explicit stack. */
function countDocument(document: DocumentNode): DocumentCounts {
  const counts: DocumentCounts = { fragments: 0, aliases: 0, repeatedPairs: 0, mostUsedKey: '', mostUsed: 0, spreads: new Map() };
  const perKey = new Map<string, number>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) counts.fragments++;
    if (definition.kind !== Kind.FRAGMENT_DEFINITION && definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const spreads: string[] = [];
    if (definition.kind === Kind.FRAGMENT_DEFINITION) counts.spreads.set(definition.name.value, spreads);
    const stack: SelectionSetNode[] = [definition.selectionSet];
    while (stack.length > 0) {
      for (const selection of stack.pop()!.selections) {
        if (selection.kind === Kind.FRAGMENT_SPREAD) {
          spreads.push(selection.name.value);
          continue;
        }
        if (selection.kind === Kind.FIELD) {
          if (selection.alias) counts.aliases++;
          const key = (selection.alias ?? selection.name).value;
          const used = (perKey.get(key) ?? 0) + 1;
          perKey.set(key, used);
          // The new field pairs with each earlier one of its key.
          counts.repeatedPairs += used - 1;
          if (used > counts.mostUsed) Object.assign(counts, { mostUsed: used, mostUsedKey: key });
        }
        if (selection.selectionSet) stack.push(selection.selectionSet);
      }
    }
  }
  return counts;
}

/**
 * The first fragment of a spread cycle, found by an iterative depth-first walk (each fragment and
 * spread visited once: linear where NoFragmentCycles reports every cycle with its path); null
 * when there is none. Spreads of undefined fragments are left to validation.
 */
export function fragmentInCycle(spreads: ReadonlyMap<string, readonly string[]>): string | null {
  const state = new Map<string, 'open' | 'done'>();
  for (const start of spreads.keys()) {
    if (state.has(start)) continue;
    const stack: Array<{ name: string; next: number }> = [{ name: start, next: 0 }];
    state.set(start, 'open');
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const targets = spreads.get(top.name) ?? [];
      if (top.next >= targets.length) {
        state.set(top.name, 'done');
        stack.pop();
        continue;
      }
      const target = targets[top.next++]!;
      if (!spreads.has(target)) continue;
      const seen = state.get(target);
      if (seen === 'open') return target;
      if (seen === undefined) {
        state.set(target, 'open');
        stack.push({ name: target, next: 0 });
      }
    }
  }
  return null;
}

/**
 * Refuses a parsed document before it is validated, with a coded error (HTTP 400): more fragment
 * definitions than the limit (TOO_MANY_FRAGMENTS), more aliases than the cost limit allows
 * (TOO_MANY_ALIASES, as the cost check after validation would), more pairs of fields sharing a
 * response key (TOO_MANY_REPEATED_FIELDS) or a fragment spread cycle (FRAGMENT_CYCLE). graphql-js validation is
 * quadratic in the fields sharing a key and reports a cycle of n fragments with n paths: without
 * this, one document holds the event loop for seconds before it is refused. Linear in the document.
 */
export function documentLimitError(document: DocumentNode, limits: DocumentLimits): GraphQLError | null {
  const counts = countDocument(document);
  if (limits.maxFragments > 0 && counts.fragments > limits.maxFragments) {
    return refusal('TOO_MANY_FRAGMENTS', `The document defines ${counts.fragments} fragments`, limits.maxFragments, counts.fragments);
  }
  if (limits.maxAliases > 0 && counts.aliases > limits.maxAliases) {
    return refusal('TOO_MANY_ALIASES', `The operation uses ${counts.aliases} aliases`, limits.maxAliases, counts.aliases);
  }
  if (limits.maxRepeatedFieldPairs > 0 && counts.repeatedPairs > limits.maxRepeatedFieldPairs) {
    const most = `${counts.mostUsed} answer as "${counts.mostUsedKey.slice(0, 100)}"`;
    return refusal('TOO_MANY_REPEATED_FIELDS', `The document has ${counts.repeatedPairs} pairs of fields sharing a response key (${most})`, limits.maxRepeatedFieldPairs, counts.repeatedPairs);
  }
  const cyclic = fragmentInCycle(counts.spreads);
  if (cyclic !== null) {
    return new GraphQLError(`Fragment "${cyclic.slice(0, 100)}" spreads itself`, { extensions: { code: 'FRAGMENT_CYCLE', http: { status: 400 } } });
  }
  return null;
}

