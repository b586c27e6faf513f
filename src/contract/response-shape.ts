/** A JSON schema as plain data (TypeBox schemas are plain objects too). */
export type JsonSchema = Record<string, any>;

/**
 * Keywords that only constrain input. An answer holds what was accepted (or computed), so they add
 * nothing to a response schema, and the serializer validates `anyOf` members at run time: a bound
 * there would turn a stored value the rules have since tightened into a 500.
 */
const INPUT_ONLY = new Set([
  'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties', 'default', 'format',
]);

const PRIMITIVES = new Set(['string', 'number', 'integer', 'boolean']);

function typeOfValue(v: unknown): string {
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** `{enum: [...strings]}` gets its `type`, which the serializer needs to write it without guessing. */
function withEnumType(s: JsonSchema): JsonSchema {
  if (s.type !== undefined || !Array.isArray(s.enum) || s.enum.length === 0) return s;
  const types = [...new Set(s.enum.map(typeOfValue))];
  return types.length === 1 ? { ...s, type: types[0] } : s;
}

/** A union with null as one schema: `type: [T, 'null']` where T is one plain type, else `anyOf`. */
function nullableUnion(members: JsonSchema[], rest: Record<string, unknown>): JsonSchema {
  const hasNull = members.some((m) => m.type === 'null');
  let others = members.filter((m) => m.type !== 'null');
  // A union of literals (`5 | 10 | 15`) is an enum.
  if (others.length > 1 && others.every((m) => m.const !== undefined)) {
    others = [withEnumType({ enum: others.map((m) => m.const) })];
  }
  if (others.length === 1 && typeof others[0]!.type === 'string' && others[0]!.$ref === undefined) {
    const only = others[0]!;
    if (!hasNull) return { ...rest, ...only };
    const merged: JsonSchema = { ...rest, ...only, type: [only.type, 'null'] };
    if (Array.isArray(only.enum)) merged.enum = [...only.enum, null];
    return merged;
  }
  // Plain primitives (`string | number | null`) are a type list too: no run-time matching needed.
  if (others.length > 1 && others.every((m) => PRIMITIVES.has(m.type) && Object.keys(m).every((k) => k === 'type' || k === 'description'))) {
    return { ...rest, type: [...others.map((m) => m.type as string), ...(hasNull ? ['null'] : [])] };
  }
  return { ...rest, anyOf: hasNull ? [...others, { type: 'null' }] : others };
}

/**
 * The response form of a request schema: input-only keywords dropped, unions with null written as
 * type lists (which the serializer writes without matching each member at run time), literal
 * unions as enums, closed objects left closed by the serializer alone (it writes only declared
 * properties), and an object that declares no properties open (`additionalProperties: true`).
 */
export function toResponseShape(schema: JsonSchema): JsonSchema {
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (INPUT_ONLY.has(key)) continue;
    if (key === 'additionalProperties') {
      if (value !== false) out.additionalProperties = typeof value === 'object' ? toResponseShape(value) : value;
      continue;
    }
    if (key === 'properties') {
      out.properties = Object.fromEntries(Object.entries(value as JsonSchema).map(([k, v]) => [k, toResponseShape(v)]));
      continue;
    }
    if (key === 'items') {
      out.items = toResponseShape(value);
      continue;
    }
    out[key] = value;
  }
  if (Array.isArray(out.anyOf)) {
    const { anyOf, ...rest } = out;
    return nullableUnion((anyOf as JsonSchema[]).map(toResponseShape), rest);
  }
  if (out.type === 'object' && (!out.properties || Object.keys(out.properties).length === 0) && out.additionalProperties === undefined) {
    out.additionalProperties = true;
  }
  return withEnumType(out);
}

/** `schema` or null, in the form the serializer writes fastest (see toResponseShape). */
export function nullable(schema: JsonSchema): JsonSchema {
  return nullableUnion([schema, { type: 'null' }], {});
}

/** A reference to a named component schema (`addSchema`d with that `$id`). */
export function ref(name: string): JsonSchema {
  return { $ref: `${name}#` };
}
