import { BREAK, Kind, visit, type ArgumentNode, type DocumentNode } from 'graphql';

/** Arguments whose value measureOperation reads: `@skip`/`@include`'s `if`, a list's `first`, `_entities`' `representations`. */
const MEASURED_ARGUMENTS = new Set(['if', 'first', 'representations']);

function holdsVariable(argument: ArgumentNode): boolean {
  let found = false;
  visit(argument.value, {
    Variable() {
      found = true;
      return BREAK;
    },
  });
  return found;
}

/**
 * Whether measureOperation's answer for `document` may depend on the operation's variables: true
 * when an argument it reads (see MEASURED_ARGUMENTS) holds a variable anywhere in the document,
 * fragments included. It errs towards true (an `if`, `first` or `representations` argument of any
 * field or directive counts), so a document it calls variable-free measures the same for every set
 * of variables and its measure can be reused.
 */
export function measureReadsVariables(document: DocumentNode): boolean {
  let reads = false;
  visit(document, {
    [Kind.ARGUMENT](node: ArgumentNode) {
      if (MEASURED_ARGUMENTS.has(node.name.value) && holdsVariable(node)) {
        reads = true;
        return BREAK;
      }
      return false;
    },
  });
  return reads;
}
