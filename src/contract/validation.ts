import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { IssueCode } from '../domain/issue-code.js';
import { validationError, type InputSource, type Issue, type LookoutError } from '../domain/lookout-error.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

function makeAjv(coerceTypes: boolean | 'array'): Ajv {
  const ajv = new Ajv({
    // Unknown keys are dropped, not rejected: clients built for richer APIs send extra fields.
    removeAdditional: true,
    useDefaults: true,
    coerceTypes,
    allErrors: true,
    strict: false,
  });
  addFormats(ajv);
  return ajv;
}

/** Bodies are JSON: a string is never silently turned into a number or boolean. */
const bodyAjv = makeAjv(false);
/** Query strings and path parameters are text: coerced to the schema's types. */
const textAjv = makeAjv('array');

const PART_SOURCE: Record<string, InputSource> = {
  body: 'payload',
  querystring: 'query',
  params: 'params',
  headers: 'headers',
};

/** The most and least an integer may be where its schema says nothing: PostgreSQL's `integer`. */
export const INT_MAX = 2_147_483_647;
export const INT_MIN = -2_147_483_648;

/** Keywords whose values are data, not subschemas. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'description', 'required']);

/**
 * The schema as the edge compiles it, with two rules applied to every route alike:
 * - every integer without bounds of its own is held to PostgreSQL's `integer`, so a query value like
 *   `page=1e308` or `99999999999999999999` is a 400 naming the key, not an overflow in SQL;
 * - an enum of strings is also typed `string`, which lets Ajv check `uniqueItems` over it with a
 *   hash instead of comparing every pair: 100,000 entries cost milliseconds, not half a minute.
 */
export function toEdgeSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toEdgeSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = DATA_KEYWORDS.has(key) ? value : toEdgeSchema(value);
  const type = (schema as { type?: unknown }).type;
  if (type === 'integer' || (Array.isArray(type) && type.includes('integer'))) {
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = INT_MAX;
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = INT_MIN;
  }
  const values = (schema as { enum?: unknown }).enum;
  if (type === undefined && Array.isArray(values) && values.length > 0 && values.every((v) => typeof v === 'string')) out.type = 'string';
  // A list longer than its limit is refused for its length alone: its items are not looked at, so
  // 100,000 entries cost one comparison instead of 100,000 item checks and issues.
  if (typeof out.maxItems === 'number' && (out.items !== undefined || out.uniqueItems || out.contains !== undefined)) {
    const { maxItems, ...rest } = out;
    return { if: { maxItems }, then: rest, else: { maxItems } };
  }
  return out;
}

/**
 * Compiled validators by part and schema text, shared by every server of the process: Ajv caches by
 * schema object, and each server hands it fresh objects, so without this a second server in one
 * process (the test suites start hundreds) would compile the same ~600 schemas again.
 */
const compiled = new Map<string, ValidateFunction>();

function compiledValidator(schema: unknown, httpPart: string | undefined): ValidateFunction {
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  const key = `${ajv === bodyAjv ? 'body' : 'text'} ${JSON.stringify(schema)}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(toEdgeSchema(schema) as object);
    compiled.set(key, validate);
  }
  return validate;
}

/**
 * Fastify's validator compiler: strict for bodies, coercing for text parts; integers bounded everywhere.
 * Each validator is compiled on the route's first request, not when the route is registered: the
 * ~600 schemas cost most of a second of every start, and most routes of a process are never called.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  let validate: ValidateFunction | undefined;
  return (data: unknown) => {
    validate ??= compiledValidator(schema, httpPart);
    return validate(data) ? { value: data } : { error: toLookoutError(validate.errors ?? [], PART_SOURCE[httpPart ?? 'body'] ?? 'payload') };
  };
};

/** Converts Ajv errors to the keys conventions.md wants named (`request.port`, `tags.0`), in linear time. */
export function ajvIssues(errors: ErrorObject[]): Issue[] {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  // Paths at or above an error of a branch keyword: a failed anyOf there is better told by that error.
  const explained = new Set<string>();
  // Paths strictly above an error: a value whose parts were checked had the right type in some
  // branch, so another branch's "must be null" there is noise.
  const parents = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'anyOf' || e.keyword === 'if') continue;
    explained.add(e.instancePath);
    for (let path = e.instancePath; path !== ''; ) {
      path = path.slice(0, path.lastIndexOf('/'));
      if (parents.has(path)) break;
      parents.add(path);
      explained.add(path);
    }
  }
  for (const e of errors) {
    if (e.keyword === 'anyOf' && explained.has(e.instancePath)) continue;
    if (e.keyword === 'type' && parents.has(e.instancePath)) continue;
    // The if/then/else of a length limit (toEdgeSchema) reports its branch's error too: that one says more.
    if (e.keyword === 'if') continue;
    const path = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (e.keyword === 'required') path.push(String((e.params as { missingProperty: string }).missingProperty));
    const key = path.join('.') || '(root)';
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ key, message: describe(e), code: issueCode(e) });
  }
  return issues;
}

/** Ajv's keyword as the stable issue code clients word themselves. */
const CODE_OF_KEYWORD: Record<string, IssueCode> = {
  required: 'REQUIRED', type: 'WRONG_TYPE', minLength: 'TOO_SHORT', maxLength: 'TOO_LONG',
  minimum: 'TOO_SMALL', exclusiveMinimum: 'TOO_SMALL', maximum: 'TOO_LARGE', exclusiveMaximum: 'TOO_LARGE',
  enum: 'NOT_ALLOWED', const: 'NOT_ALLOWED', format: 'BAD_FORMAT', pattern: 'BAD_FORMAT',
  minItems: 'TOO_FEW_ITEMS', maxItems: 'TOO_MANY_ITEMS', uniqueItems: 'DUPLICATE',
};

function issueCode(e: ErrorObject): IssueCode {
  return CODE_OF_KEYWORD[e.keyword] ?? 'INVALID';
}

function describe(e: ErrorObject): string {
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'enum': {
      const allowed = (e.params as { allowedValues: unknown[] }).allowedValues;
      // A long list is told once in the API's catalogue routes (/v1/locations), not in every issue.
      return allowed.length <= 12 ? `must be one of ${allowed.join(', ')}` : `must be one of the ${allowed.length} allowed values (${allowed.slice(0, 3).join(', ')}, …)`;
    }
    case 'const':
      return `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}`;
    case 'type':
      return `must be ${(e.params as { type: string }).type}`;
    case 'pattern':
      return (e.params as { pattern: string }).pattern === '\\S' ? 'must not be blank' : `must match ${(e.params as { pattern: string }).pattern}`;
    case 'anyOf':
      return 'has an invalid value';
    default:
      return e.message ?? 'is invalid';
  }
}

/** Ajv's errors as the VALIDATION error every route answers with (a bounded number of keys named). */
export function toLookoutError(errors: ErrorObject[], source: InputSource): LookoutError {
  return validationError(ajvIssues(errors), source);
}

const bodyValidators = new WeakMap<object, ValidateFunction>();

/**
 * Validates (and cleans: unknown keys removed) a JSON body against `schema` inside a handler,
 * throwing the same VALIDATION error as route-level validation. Used where the schema depends on
 * the body itself (the generic check routes, alert channel configs).
 */
export function validateBody<T>(schema: object, data: unknown, keyPrefix = ''): T {
  let validate = bodyValidators.get(schema);
  if (!validate) {
    validate = bodyAjv.compile(toEdgeSchema(schema) as object);
    bodyValidators.set(schema, validate);
  }
  if (!validate(data)) {
    const issues = ajvIssues(validate.errors ?? []);
    if (!keyPrefix) throw validationError(issues, 'payload');
    throw validationError(issues.map((i) => ({ ...i, key: i.key === '(root)' ? keyPrefix : `${keyPrefix}.${i.key}` })), 'payload');
  }
  return data as T;
}
