import { randomInt, randomUUID } from 'node:crypto';
import type { RunVariable } from './executor.js';

/** `{{KEY}}` or `{{ KEY }}`; `$`-prefixed names are the built-in dynamic values. */
const PLACEHOLDER = /\{\{\s*(\$?[A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Values computed per occurrence, as monitoring-as-code request templates use them. */
const DYNAMIC: Record<string, () => string> = {
  $UUID: () => randomUUID(),
  $RANDOM_NUMBER: () => String(randomInt(0, 10_000_000)),
  $UNIX_TIMESTAMP: () => String(Math.floor(Date.now() / 1000)),
  $ISO_TIMESTAMP: () => new Date().toISOString(),
};

/** Variables keyed by name; later entries win on the same key (account < group < check). */
export function variableValues(variables: readonly Pick<RunVariable, 'key' | 'value'>[]): Map<string, string> {
  return new Map(variables.map((v) => [v.key, v.value]));
}

/**
 * `text` with each `{{KEY}}` replaced by the value of the variable KEY, and the dynamic
 * placeholders `{{$UUID}}`, `{{$RANDOM_NUMBER}}`, `{{$UNIX_TIMESTAMP}}` and `{{$ISO_TIMESTAMP}}`
 * by a fresh value. An unknown key stays as written, so a typo shows up in the request echo
 * instead of silently becoming an empty string. Replaced values are not expanded again.
 */
export function interpolateVariables(text: string, values: ReadonlyMap<string, string>): string {
  if (!text.includes('{{')) return text;
  return text.replace(PLACEHOLDER, (whole, key: string) => {
    const value = values.get(key);
    if (value !== undefined) return value;
    const dynamic = DYNAMIC[key];
    return dynamic ? dynamic() : whole;
  });
}
