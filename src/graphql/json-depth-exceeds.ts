/**
 * Whether a parsed JSON value nests arrays and objects deeper than `maxDepth` (the root container at
 * depth 1). Attacker-sized input is walked with an explicit stack, never recursion, and the walk stops
 * at the first container past the limit: JSON.stringify, input coercion and every recursive step
 * after it would otherwise exhaust the call stack on a value nested 10,000 deep.
 */
export function jsonDepthExceeds(value: unknown, maxDepth: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: Array<[object, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [container, depth] = stack.pop()!;
    if (depth > maxDepth) return true;
    for (const item of Array.isArray(container) ? container : Object.values(container)) {
      if (item !== null && typeof item === 'object') stack.push([item, depth + 1]);
    }
  }
  return false;
}

/**
 * jsonDepthExceeds over JSON text not yet parsed (a GET's `variables`): brackets outside strings are
 * counted in one pass, so the text is never parsed when it is too deep. Malformed text is left to
 * the parser that reads it next.
 */
export function jsonTextDepthExceeds(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
