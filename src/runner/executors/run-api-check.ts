import type { Executor } from '../executor.js';
import { runHttpCheck } from './run-http-check.js';

/**
 * The API check executor: the check's full request (method, headers, query parameters, body per
 * bodyType, basicAuth, followRedirects, skipSSL, ipFamily), the group's setup and teardown
 * scripts, and every API assertion source. See runHttpCheck for the steps and the result shape.
 */
export const runApiCheck: Executor = (check, ctx) => runHttpCheck('API', check, ctx);
