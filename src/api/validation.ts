import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { LookoutError, type InputSource, type Issue } from '../domain/lookout-error.js';

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

/** Fastify's validator compiler: strict for bodies, coercing for text parts. */
export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) => {
  const validate = (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);
  return (data: unknown) => (validate(data) ? { value: data } : { error: toLookoutError(validate.errors ?? [], PART_SOURCE[httpPart ?? 'body'] ?? 'payload') });
};

/** Converts Ajv errors to the keys conventions.md wants named (`request.port`, `tags.0`). */
export function ajvIssues(errors: ErrorObject[]): Issue[] {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    // A failed anyOf repeats each branch's error; the branch errors are more precise.
    if (e.keyword === 'anyOf' && errors.some((o) => o !== e && o.instancePath.startsWith(e.instancePath) && o.keyword !== 'anyOf')) {
      continue;
    }
    const path = e.instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (e.keyword === 'required') path.push(String((e.params as { missingProperty: string }).missingProperty));
    const key = path.join('.') || '(root)';
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push({ key, message: describe(e) });
  }
  return issues;
}

function describe(e: ErrorObject): string {
  switch (e.keyword) {
    case 'required':
      return 'is required';
    case 'enum':
      return `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')}`;
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

export function toLookoutError(errors: ErrorObject[], source: InputSource): LookoutError {
  const issues = ajvIssues(errors);
  const message = issues.map((i) => (i.key === '(root)' ? `body ${i.message}` : `"${i.key}" ${i.message}`)).join('. ');
  return new LookoutError('VALIDATION', message, { issues, source });
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
    validate = bodyAjv.compile(schema);
    bodyValidators.set(schema, validate);
  }
  if (!validate(data)) {
    const err = toLookoutError(validate.errors ?? [], 'payload');
    if (!keyPrefix) throw err;
    const issues = err.issues.map((i) => ({ ...i, key: i.key === '(root)' ? keyPrefix : `${keyPrefix}.${i.key}` }));
    throw new LookoutError('VALIDATION', issues.map((i) => `"${i.key}" ${i.message}`).join('. '), { issues, source: 'payload' });
  }
  return data as T;
}
