import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContractValidator } from '../support/contract-validator.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const run = promisify(execFile);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

interface Operation {
  method: string;
  path: string;
  op: Record<string, any>;
}

describe('the OpenAPI document served at /openapi.json', () => {
  let server: TestServer;
  let doc: Record<string, any>;
  let operations: Operation[];
  const dir = mkdtempSync(join(tmpdir(), 'lookout-openapi-'));

  beforeAll(async () => {
    server = await startTestServer({ config: { publicUrl: 'https://lookout.test' } });
    const res = await server.raw('GET', '/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
    operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method] })));
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes @redocly/cli lint with the recommended rules without an error', async () => {
    const file = join(dir, 'openapi.json');
    const config = join(dir, 'redocly.yaml');
    writeFileSync(file, JSON.stringify(doc));
    writeFileSync(config, 'extends:\n  - recommended\n');
    // redocly exits 1 when it finds errors: the JSON report on stdout says which either way.
    const { stdout } = await run('node_modules/.bin/redocly', ['lint', file, '--config', config, '--format=json'], {
      maxBuffer: 64 * 1024 * 1024, timeout: 120_000,
    }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    const report = JSON.parse(stdout) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  }, 150_000);

  it('names the server from the public URL and describes every tag an operation uses', () => {
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'https://lookout.test' })]);
    const declared = new Map((doc.tags as { name: string; description: string }[]).map((t) => [t.name, t.description]));
    for (const { op } of operations) {
      expect(op.tags?.length, `${op.operationId} has tags`).toBeGreaterThan(0);
      for (const tag of op.tags) expect(declared.get(tag), `tag "${tag}" is declared with a description`).toBeTruthy();
    }
  });

  it('gives every operation a unique camelCase operationId', () => {
    const ids = operations.map(({ method, path, op }) => op.operationId ?? `(none for ${method.toUpperCase()} ${path})`);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it('declares for every operation a success answer: a named JSON schema, a non-JSON content type, or no body for 204', () => {
    const missing: string[] = [];
    for (const { op } of operations) {
      const success = Object.entries(op.responses as Record<string, any>).filter(([status]) => status.startsWith('2'));
      if (success.length === 0) missing.push(`${op.operationId}: no 2xx answer`);
      for (const [status, response] of success) {
        const content = response.content as Record<string, { schema?: Record<string, unknown> }> | undefined;
        if (status === '204') {
          if (content) missing.push(`${op.operationId} 204: declares a body`);
          continue;
        }
        if (!content) {
          missing.push(`${op.operationId} ${status}: no content`);
          continue;
        }
        const json = content['application/json'];
        if (json && !String(json.schema?.$ref ?? '').startsWith('#/components/schemas/')) missing.push(`${op.operationId} ${status}: JSON schema is not a named component`);
        if (!json && Object.values(content).some((c) => !c.schema)) missing.push(`${op.operationId} ${status}: a content type without schema`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('is what the test clients hold every answer to: a wrong body, status or content type fails naming the operation', () => {
    const contract = createContractValidator(JSON.stringify(doc));
    const answer = { method: 'GET', path: '/v1/checks/00000000-0000-4000-8000-000000000000?x=1', contentType: 'application/json' };
    expect(() => contract.check({ ...answer, status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Check not found' } })).not.toThrow();
    expect(() => contract.check({ ...answer, status: 200, body: { id: '00000000-0000-4000-8000-000000000000', checkType: 'NOT_A_TYPE' } })).toThrow(/getCheck \(GET \/v1\/checks\/\{id\}\) answered 200 .*checkType/);
    expect(() => contract.check({ ...answer, status: 418, body: {} })).toThrow(/getCheck .* answered 418, a status the document does not declare/);
    expect(() => contract.check({ ...answer, path: '/v1/badges/checks/00000000-0000-4000-8000-000000000000', status: 200, contentType: 'text/html', body: '' }))
      .toThrow(/getCheckBadge .* as text\/html; the document declares image\/svg\+xml/);
    // Routes the document leaves out (health, the documents, GraphQL) are not checked.
    expect(() => contract.check({ ...answer, path: '/health', status: 200, body: { anything: true } })).not.toThrow();
  });

  it('declares for every operation the errors it can answer, in the one error schema', () => {
    const problems: string[] = [];
    for (const { path, op } of operations) {
      const errors = Object.entries(op.responses as Record<string, any>).filter(([status]) => /^[45]/.test(status));
      const statuses = errors.map(([status]) => status);
      for (const expected of ['400', '500', ...(op.security?.length === 0 ? [] : ['401', '403']), ...(path.includes('{') ? ['404'] : [])]) {
        if (!statuses.includes(expected)) problems.push(`${op.operationId}: no ${expected}`);
      }
      for (const [status, response] of errors) {
        if (response.content?.['application/json']?.schema?.$ref !== '#/components/schemas/Error') problems.push(`${op.operationId} ${status}: not the Error schema`);
      }
    }
    expect(problems).toEqual([]);
    expect(doc.components.schemas.Error.required).toEqual(['statusCode', 'error', 'message']);
  });
});
