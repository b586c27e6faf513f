import type { Executor } from '../executor.js';
import { defaultSandbox } from '../sandbox/default-sandbox.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import { runHttpCheck } from './run-http-check.js';

/**
 * The API check executor: the check's full request (method, headers, query parameters, body per
 * bodyType, basicAuth, followRedirects, skipSSL, ipFamily), the group's setup and teardown
 * scripts (run in `sandbox`), and every API assertion source. See runHttpCheck for the steps and
 * the result shape.
 */
export function createApiCheckExecutor(sandbox: Sandbox): Executor {
  return (check, ctx) => runHttpCheck('API', check, ctx, sandbox);
}

/** The API check executor with the sandbox of this process's environment (defaultSandbox). */
export const runApiCheck: Executor = (check, ctx) => runHttpCheck('API', check, ctx, defaultSandbox());
