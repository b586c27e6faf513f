/** Characters XML 1.0 cannot hold at all, even escaped (most C0 controls, lone surrogates, U+FFFE/FFFF). */
const NOT_XML = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Text made safe for XML character data and quoted attribute values: the five predefined entities,
 * and characters no XML parser accepts dropped (one stray control character would make a whole
 * feed unreadable). Every value a feed holds goes through this one rule.
 */
export function xmlText(value: unknown): string {
  return String(value ?? '')
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
