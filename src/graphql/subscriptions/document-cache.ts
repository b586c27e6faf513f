import { parse, print, validate, type DocumentNode, type GraphQLError, type GraphQLSchema, type ParseOptions, type Source } from 'graphql';

/** Longest operation text kept in the cache; longer ones are parsed on every use. */
const MAX_CACHED_QUERY = 20_000;

interface Cached {
  /** The operation text as first seen: sockets sending the same text share this one string. */
  query: string;
  document: DocumentNode;
  printed?: string;
  errors?: readonly GraphQLError[];
}

/**
 * Parsed (with `parseOptions`: the token limit), validated and printed operations by their text, most recently used kept. A dashboard
 * fleet sends the same subscription on thousands of sockets; graphql-ws keeps each subscription's
 * document (AST, tokens and locations: ~10 KB for a small operation) for as long as it runs, so
 * without sharing, memory per idle socket is mostly copies of one document.
 */
export function createDocumentCache(schema: GraphQLSchema, parseOptions: ParseOptions = {}, max = 1000) {
  const byQuery = new Map<string, Cached>();
  const byDocument = new WeakMap<DocumentNode, Cached>();

  const lookup = (query: string): Cached | undefined => {
    const hit = byQuery.get(query);
    if (hit) {
      // Re-inserted: Map order is the eviction order, oldest first.
      byQuery.delete(query);
      byQuery.set(query, hit);
    }
    return hit;
  };

  return {
    /** The shared copy of `query` when it is cached, so a socket's message need not keep its own. */
    intern(query: string): string {
      return byQuery.get(query)?.query ?? query;
    },
    /** graphql-ws's `parse`: throws on syntax errors like graphql's. */
    parse(source: string | Source, options?: ParseOptions): DocumentNode {
      if (typeof source !== 'string' || options) return parse(source, { ...parseOptions, ...options });
      const query = source;
      const hit = lookup(query);
      if (hit) return hit.document;
      const document = parse(query, parseOptions);
      if (query.length <= MAX_CACHED_QUERY) {
        const entry: Cached = { query, document };
        byQuery.set(query, entry);
        byDocument.set(document, entry);
        if (byQuery.size > max) byQuery.delete(byQuery.keys().next().value!);
      }
      return document;
    },
    /** graphql-ws's `validate`: once per cached document against this cache's schema. */
    validate(against: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] {
      const entry = against === schema ? byDocument.get(document) : undefined;
      if (!entry) return validate(against, document);
      entry.errors ??= validate(against, document);
      return entry.errors;
    },
    /** `print(document)`, once per cached document. */
    print(document: DocumentNode): string {
      const entry = byDocument.get(document);
      if (!entry) return print(document);
      entry.printed ??= print(document);
      return entry.printed;
    },
  };
}
