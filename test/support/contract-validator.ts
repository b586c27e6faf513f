import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

/** What a test client received, as the validator looks at it. */
export interface ReceivedAnswer {
  method: string;
  /** The path asked for, query string included. */
  path: string;
  status: number;
  contentType: string;
  body: unknown;
}

/**
 * Checks answers against the OpenAPI document the server publishes: the operation the path and
 * method match, the status among its responses, and a JSON body valid against that response's
 * schema. Answers of routes the document does not describe (the documents themselves, health,
 * GraphQL, unknown routes) are not its business.
 */
export interface ContractValidator {
  /** Throws an Error naming the operation, status and schema path when `answer` breaks the contract. */
  check(answer: ReceivedAnswer): void;
}

interface Operation {
  operationId: string;
  method: string;
  template: string;
  pattern: RegExp;
  params: number;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function toPattern(template: string): RegExp {
  const source = template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')).join('[^/]+');
  return new RegExp(`^${source}/?$`);
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message} (schema ${e.schemaPath})`).join('; ');
}

/** Compiled validators of one document text: servers in one test file publish the same document. */
const cache = new Map<string, ContractValidator>();

/** A validator for the document at `documentText` (the text of `/openapi.json`). */
export function createContractValidator(documentText: string): ContractValidator {
  const doc = JSON.parse(documentText) as { paths: Record<string, Record<string, any>>; components: unknown };
  // The server URL differs between servers; nothing else about the contract does.
  const key = JSON.stringify({ paths: doc.paths, components: doc.components });
  const cached = cache.get(key);
  if (cached) return cached;

  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema({ $id: 'openapi.json', components: doc.components } as object);

  const operations: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      operations.push({
        operationId: op.operationId ?? `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        template,
        pattern: toPattern(template),
        params: (template.match(/\{/g) ?? []).length,
        responses: op.responses ?? {},
      });
    }
  }
  // Static segments win over parameters, as in the router.
  operations.sort((a, b) => a.params - b.params);

  const validators = new Map<string, ValidateFunction>();
  const validatorOf = (op: Operation, status: string, schema: unknown): ValidateFunction => {
    const id = `${op.operationId} ${status}`;
    let validate = validators.get(id);
    if (!validate) {
      // Component references point into the document registered above.
      const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'));
      validate = ajv.compile(rebased);
      validators.set(id, validate);
    }
    return validate;
  };

  const validator: ContractValidator = {
    check({ method, path, status, contentType, body }) {
      const pathname = path.split('?')[0]!;
      const op = operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(pathname));
      if (!op) return;
      const where = `${op.operationId} (${op.method} ${op.template}) answered ${status}`;
      const response = op.responses[String(status)] ?? op.responses[`${String(status)[0]}XX`];
      if (!response) {
        throw new Error(`Contract: ${where}, a status the document does not declare (declared: ${Object.keys(op.responses).join(', ')})`);
      }
      const isJson = contentType.includes('json');
      const declared = Object.keys(response.content ?? {});
      if (!isJson) {
        if (status === 204 || declared.length === 0 || !contentType) return;
        const mediaType = contentType.split(';')[0]!.trim();
        if (!declared.includes(mediaType)) throw new Error(`Contract: ${where} as ${mediaType}; the document declares ${declared.join(', ')}`);
        return;
      }
      const schema = response.content?.['application/json']?.schema;
      if (!schema) throw new Error(`Contract: ${where} with a JSON body; the document declares ${declared.join(', ') || 'no body'}`);
      const validate = validatorOf(op, String(status), schema);
      if (!validate(body)) {
        throw new Error(`Contract: ${where} with a body the schema refuses: ${describe(validate.errors)}\nbody: ${JSON.stringify(body).slice(0, 2000)}`);
      }
    },
  };
  cache.set(key, validator);
  return validator;
}
