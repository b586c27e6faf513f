import type { Executor } from '../executor.js';
import { runHttpCheck } from './run-http-check.js';

/**
 * The URL monitor executor: a GET of `request.url` (followRedirects, skipSSL, ipFamily apply)
 * judged by its STATUS_CODE assertions only, or, with none, failing on a status of 400 or more.
 * See runHttpCheck for the steps and the result shape.
 */
export const runUrlCheck: Executor = (check, ctx) => runHttpCheck('URL', check, ctx, null);
