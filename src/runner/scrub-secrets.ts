import type { RunVariable } from './executor.js';

/** What a secret value is replaced with wherever a run's output is kept. */
export const SCRUBBED = '*****';

/** Replaces every secret in a text; the identity when there are no secrets. */
export type Scrubber = (text: string) => string;

/** The values of the secret variables of a run (empty values hide nothing and are left out). */
export function secretValues(variables: readonly RunVariable[]): string[] {
  return variables.filter((v) => v.secret && v.value !== '').map((v) => v.value);
}

/**
 * A scrubber for `secrets`: each value is replaced by `*****` as written and in the encoded forms
 * it takes on the way into a request or a log — percent-encoded (encodeURIComponent and the
 * form encoding with `+` for spaces), escaped inside a JSON string, base64 and base64url. Longer secrets are replaced first so
 * a secret that contains another is hidden whole.
 */
export function createScrubber(secrets: readonly string[]): Scrubber {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(new URLSearchParams({ s: secret }).toString().slice(2));
    forms.add(JSON.stringify(secret).slice(1, -1));
    const bytes = Buffer.from(secret, 'utf8');
    forms.add(bytes.toString('base64'));
    forms.add(bytes.toString('base64url'));
  }
  if (forms.size === 0) return (text) => text;
  const alternatives = [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp(alternatives.join('|'), 'g');
  return (text) => text.replace(pattern, SCRUBBED);
}

/**
 * A copy of a JSON-like value with every string (object keys included) scrubbed; other values
 * are kept as they are.
 */
export function scrubDeep<T>(value: T, scrub: Scrubber): T {
  return walk(value, scrub) as T;
}

function walk(value: unknown, scrub: Scrubber): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, scrub));
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[scrub(k)] = walk(v, scrub);
    return out;
  }
  return value;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
