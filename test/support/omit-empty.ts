/**
 * A JSON value as a client whose structs drop zero values sends it (Go's `omitempty`): every
 * object key whose value is `false`, `0`, `""`, `[]`, `{}` or null is removed, recursively (objects
 * emptied by the removal are removed too). List items are kept: omitempty drops fields, not items.
 */
export function omitEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(omitEmpty);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const kept = omitEmpty(v);
    if (isEmpty(kept)) continue;
    out[key] = kept;
  }
  return out;
}

function isEmpty(v: unknown): boolean {
  if (v === null || v === false || v === 0 || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v as object).length === 0;
}
