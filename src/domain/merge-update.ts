/**
 * The update semantics of every resource, written once over a description of its fields (a
 * `Shape`). The rules, in the words of the README "Update semantics":
 * - create: a field absent or null takes its default; an object given in part is filled key by
 *   key with its own defaults, at every depth; the objects of a list are filled the same way;
 * - update: a field absent or null is left as stored (fields marked `nullClears` are the
 *   exception: null clears them; see check-shapes.ts for which); a list sent replaces the stored one (`[]`
 *   empties it); an object sent in part merges over the stored one key by key, at every depth;
 *   the entries of a keyed list (environment variables by `key`) merge over the stored entry of
 *   the same key, so a secret sent back without its value keeps it; then the create rules fill
 *   what is still missing.
 * So a body made from a read with its zero values dropped (`false`, `0`, `""`, `[]`, `{}`, null)
 * changes nothing: every dropped key is either left as stored or filled with the same default.
 * Fields the shape does not name are kept as given (the schema decides what is accepted).
 */

/** A field with a default value (a scalar, or a value replaced whole). No default: left absent. */
export interface ValueField {
  kind: 'value';
  default?: unknown;
  /** Values that mean the same as the default and are stored as it (so a read round-trips whatever was sent). */
  same?: readonly unknown[];
  /** On update, null clears the field (stores the default) instead of leaving it as stored. */
  nullClears?: boolean;
}

/** A list: replaced whole; objects in it are filled with `item`'s defaults. */
export interface ListField {
  kind: 'list';
  /** The default when absent or null on create: an empty list unless said otherwise. */
  default?: unknown[] | null;
  item?: Shape;
  /** Entries sent merge over the stored entry with the same value of this key. */
  itemKey?: string;
}

/** An object: filled and merged key by key. */
export interface ObjectField {
  kind: 'object';
  shape: Shape;
  /** When absent or null on create: filled from its shape ('filled'), null, or left absent. */
  default: 'filled' | null | 'absent';
  /** On update, null clears the object (stores null) instead of leaving it as stored. */
  nullClears?: boolean;
}

/** How one field of a resource is filled on create and merged on update. */
export type Field = ValueField | ListField | ObjectField;

/** The fields of a resource (or of one of its objects). */
export type Shape = Readonly<Record<string, Field>>;

/** A field whose default is `value` (`undefined`: no default, the schema requires it or it stays absent). */
export const value = (defaultValue?: unknown, extra: { nullClears?: boolean; same?: readonly unknown[] } = {}): ValueField => ({
  kind: 'value', default: defaultValue, ...extra,
});
/** A list field, its objects filled with `item`'s defaults and, with `itemKey`, merged by that key. */
export const list = (item?: Shape, extra: { itemKey?: string; default?: unknown[] | null } = {}): ListField => ({ kind: 'list', item, ...extra });
/** An object field. */
export const object = (shape: Shape, whenMissing: ObjectField['default'] = 'filled', extra: { nullClears?: boolean } = {}): ObjectField => ({
  kind: 'object', shape, default: whenMissing, ...extra,
});

const isPlainObject = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);
const copy = <T>(v: T): T => (v !== null && typeof v === 'object' ? structuredClone(v) : v);

function defaultOf(field: Field): unknown {
  if (field.kind === 'value') return copy(field.default);
  if (field.kind === 'list') return field.default === undefined ? [] : copy(field.default);
  if (field.default === 'filled') return withDefaults({}, field.shape);
  return field.default === null ? null : undefined;
}

function fillItems(field: ListField, items: unknown[]): unknown[] {
  return field.item ? items.map((e) => (isPlainObject(e) ? withDefaults(e, field.item!) : e)) : items;
}

/**
 * `input` with every field of `shape` present: absent or null fields take their defaults, objects
 * and the objects of lists are filled at every depth. Fields without a default stay as they are.
 */
export function withDefaults<T extends Record<string, any>>(input: T, shape: Shape): T {
  const out: Record<string, any> = { ...input };
  for (const [key, field] of Object.entries(shape)) {
    const v = input[key];
    if (v === undefined || v === null) {
      const d = defaultOf(field);
      if (d !== undefined) out[key] = d;
      else if (v === null && field.kind === 'object' && field.default === 'absent') delete out[key];
    } else if (field.kind === 'value' && field.same?.includes(v)) {
      out[key] = copy(field.default);
    } else if (field.kind === 'object' && isPlainObject(v)) {
      out[key] = withDefaults(v, field.shape);
    } else if (field.kind === 'list' && Array.isArray(v)) {
      out[key] = fillItems(field, v);
    }
  }
  return out as T;
}

/** Entries of a keyed list merged over the stored entries of the same key (each stored entry used once). */
function mergeKeyedItems(field: ListField, sent: unknown[], stored: unknown): unknown[] {
  const byKey = new Map<unknown, Record<string, any>[]>();
  for (const e of Array.isArray(stored) ? stored : []) {
    if (!isPlainObject(e)) continue;
    const queue = byKey.get(e[field.itemKey!]) ?? [];
    queue.push(e);
    byKey.set(e[field.itemKey!], queue);
  }
  return sent.map((e) => {
    if (!isPlainObject(e)) return e;
    const match = byKey.get(e[field.itemKey!])?.shift();
    return match ? mergeUpdate(match, e, field.item ?? {}) : e;
  });
}

/**
 * `update` merged over `stored` by the update rules above (null and absent leave as stored, lists
 * replace, objects merge key by key). Defaults are not filled here: apply withDefaults after.
 */
export function mergeUpdate<T extends Record<string, any>>(stored: T, update: Record<string, any>, shape: Shape): T {
  const out: Record<string, any> = { ...stored };
  for (const [key, v] of Object.entries(update)) {
    const field = shape[key];
    if (v === undefined) continue;
    if (v === null) {
      if (field?.kind === 'value' && field.nullClears) out[key] = copy(field.default ?? null);
      if (field?.kind === 'object' && field.nullClears) out[key] = null;
      continue;
    }
    if (field?.kind === 'object' && isPlainObject(v) && isPlainObject(stored[key])) {
      out[key] = mergeUpdate(stored[key], v, field.shape);
    } else if (field?.kind === 'list' && field.itemKey && Array.isArray(v)) {
      out[key] = mergeKeyedItems(field, v, stored[key]);
    } else {
      out[key] = v;
    }
  }
  return out as T;
}
