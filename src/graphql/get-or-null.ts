import { RestError } from './errors.js';
import type { RestSession } from './rest-client.js';

/**
 * `GET path`, or null when the REST API answers 404 (unknown, or another account's: it does not
 * tell them apart) or 400 (an id or key that cannot exist). Other failures stay errors.
 */
export async function getOrNull<T>(rest: RestSession, path: string): Promise<T | null> {
  try {
    return (await rest.get<T>(path)).body;
  } catch (err) {
    if (err instanceof RestError && (err.status === 404 || err.status === 400)) return null;
    throw err;
  }
}
