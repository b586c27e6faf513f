import { parse, type GraphQLError } from 'graphql';
import { documentLimitError, tooManyTokensError, type DocumentLimits } from './document-limit-error.js';

/** Longest document text remembered as accepted; longer ones are checked on every request. */
const MAX_REMEMBERED_CHARS = 20_000;
/** Accepted documents remembered at most (the oldest forgotten first). */
const MAX_REMEMBERED = 1000;

/**
 * The document check of the /graphql route, run before Apollo sees the request: the document is
 * parsed with the token limit (TOO_MANY_TOKENS) and refused past the other limits
 * (documentLimitError), so nothing unbounded reaches Apollo's validation. Apollo's plugin hooks
 * cannot refuse a document between parsing and validation (an error thrown there is a 500), hence
 * this second parse; the texts of recently accepted documents are remembered, so an operation
 * repeated (a console, a dashboard fleet) is parsed once here. A document that does not parse is
 * left to Apollo's own syntax error.
 */
export function createDocumentGuard(limits: DocumentLimits): (query: unknown) => GraphQLError | null {
  const accepted = new Set<string>();
  return (query) => {
    if (typeof query !== 'string' || query.length === 0 || accepted.has(query)) return null;
    let document;
    try {
      document = parse(query, { maxTokens: limits.maxTokens, noLocation: true });
    } catch (err) {
      return tooManyTokensError(err, limits);
    }
    const refused = documentLimitError(document, limits);
    if (!refused && query.length <= MAX_REMEMBERED_CHARS) {
      accepted.add(query);
      if (accepted.size > MAX_REMEMBERED) accepted.delete(accepted.values().next().value!);
    }
    return refused;
  };
}
